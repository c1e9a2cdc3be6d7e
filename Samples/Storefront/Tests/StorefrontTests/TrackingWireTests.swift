import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StorefrontKit

@Suite("Events at the stand-in vendor")
struct TrackingWireTests {
    @Test func renderingSendsSegmentifyImpressionsAndRetenoProductImpressions() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            let summaries = await harness.deliverEverything()
            #expect(summaries.values.allSatisfy { $0.pending == 0 && $0.deadLettered == 0 })

            let segmentifyRequests = harness.vendor.received.filter { $0.vendor == "segmentify" }
            #expect(!segmentifyRequests.isEmpty)
            #expect(segmentifyRequests.allSatisfy { $0.uri.hasPrefix("/add/events/v1.json?apiKey=storefront-sample-key") })
            #expect(segmentifyRequests.allSatisfy { $0.body.arrayValue != nil }, "Segmentify batches are JSON arrays")
            let impressions = harness.segmentifyEvents
            #expect(impressions.count == Harness.segmentifyBlocks.count)
            #expect(impressions.allSatisfy { $0["name"]?.stringValue == "INTERACTION" && $0["type"]?.stringValue == "impression" })
            #expect(impressions.compactMap { $0["instanceId"]?.stringValue } == Harness.segmentifyBlocks.map(\.instanceId))
            #expect(impressions.compactMap { $0["interactionId"]?.stringValue } == Harness.segmentifyBlocks.map(\.interactionId))
            #expect(impressions.allSatisfy { $0["userId"]?.stringValue?.count == 32 && $0["sessionId"]?.stringValue?.count == 32 })

            let retenoRequests = harness.vendor.received.filter { $0.vendor == "reteno" }
            #expect(retenoRequests.allSatisfy { $0.uri == "/api/v1/recoms/events" })
            let groups = harness.retenoGroups
            #expect(groups.allSatisfy { $0["recomVariantId"]?.stringValue == "r1105v1480" })
            let shown = try RetenoProductsOnPage(page).map(\.productId)
            let impressed = groups.flatMap { $0["impressions"]?.arrayValue ?? [] }.compactMap { $0["productId"]?.stringValue }
            #expect(!shown.isEmpty && impressed == shown)
        }
    }
}
