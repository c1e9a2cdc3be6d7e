import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StorefrontKit

@Suite("Widget-view beacon")
struct BeaconTests {
    static let block = "instanceId=scn_64f1c2a9d7e3b001&interactionId=act_64f1c2a9d7e3b002"

    @Test func aViewOfABlockShownToThisVisitorIsAcceptedOnceAndSentAsWidgetView() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            #expect(try await client.beacon(Self.block, cookies: page.cookies) == .noContent)
            #expect(try await client.beacon(Self.block, cookies: page.cookies) == .forbidden, "counted once per rendering")
            _ = await harness.deliverEverything()
            let views = harness.segmentifyEvents.filter { $0["type"]?.stringValue == "widget-view" }
            #expect(views.count == 1)
            #expect(views.first?["instanceId"]?.stringValue == "scn_64f1c2a9d7e3b001")
            #expect(views.first?["interactionId"]?.stringValue == "act_64f1c2a9d7e3b002")
            #expect(views.first?["userId"]?.stringValue == page.visitorId)
        }
    }

    @Test func unknownWidgetsOtherVisitorsAndMissingCookiesAreRefused() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            let other = try await client.page("/products/100900?blocks=off")
            #expect(other.cookies != page.cookies && !other.cookies.isEmpty)
            #expect(try await client.beacon("instanceId=scn_unknown&interactionId=act_x", cookies: page.cookies) == .forbidden)
            #expect(try await client.beacon("instanceId=scn_64f1c2a9d7e3b001&interactionId=act_wrong", cookies: page.cookies) == .forbidden)
            #expect(try await client.beacon(Self.block, cookies: other.cookies) == .forbidden, "rendered for another visitor")
            #expect(try await client.beacon(Self.block, cookies: nil) == .forbidden)
            #expect(try await client.beacon(Self.block, cookies: "sf_visitor=nothex; sf_session=nothex") == .forbidden)
            #expect(try await client.beacon("instanceId=scn_64f1c2a9d7e3b001", cookies: page.cookies) == .badRequest)
            _ = await harness.deliverEverything()
            let views = harness.segmentifyEvents.filter { $0["type"]?.stringValue == "widget-view" }
            #expect(views.isEmpty)
        }
    }
}
