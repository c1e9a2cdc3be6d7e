import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoKitTesting
import RecoVendors
@testable import RecoTracking

/// A user's own destination with a rule of its own: it refuses the product `BAD`.
struct PickyDestination: TrackingDestination {
    var name: String { "picky" }
    var limits: DestinationLimits { DestinationLimits(maxEvents: 100, maxBytes: 1 << 20) }
    func validate(_ interaction: Interaction) throws(InteractionError) {
        if interaction.productId == "BAD" { throw .unsupported("product BAD is refused") }
    }
    func request(for records: [EventRecord]) -> VendorRequest {
        VendorRequest(url: URL(string: "http://127.0.0.1:9/events")!, headers: [], body: Data())
    }
}

@Suite("Page validation: the shared context once, every rule on every impression")
struct PageValidationTests {
    static let destinations: [any TrackingDestination] = [
        SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:9")!, apiKey: "k", origin: "shop.example"),
        RetenoDestination(base: URL(string: "http://127.0.0.1:9")!, accessKey: "k"),
        PickyDestination(),
    ]

    /// What validating each impression alone refuses: its shape first, then the destination's rules, per impression.
    static func perImpressionError(_ page: PageImpressions, _ destination: any TrackingDestination) -> (index: Int, error: InteractionError)? {
        for index in page.impressions.indices {
            do { try page.interaction(index).checkShape() } catch { return (index, error) }
        }
        for index in page.impressions.indices {
            do { try destination.validate(page.interaction(index)) } catch { return (index, error) }
        }
        return nil
    }

    @Test func randomPagesAreRefusedExactlyWhenAnImpressionIsAlone() throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("PageValidationTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        func pick(_ choices: [String?]) -> String? { choices[Int.random(in: 0..<choices.count, using: &random)] }
        var refused = 0
        for round in 0..<400 {
            var context = Fixtures.context
            context.userId = pick(["u1", "u1", "u1", "", nil])
            context.sessionId = pick(["s1", "s1", "s1", "", nil])
            var page = PageImpressions(context: context)
            for position in 1...Int.random(in: 1...6, using: &random) {
                page.impressions.append(PageImpressions.Impression(
                    instanceId: pick(["v1", "v1", "v1", "v1", ""])!, interactionId: pick(["a1", "a1", "a1", "a1", ""])!,
                    productId: pick(["P-1", "P-2", "P-3", nil, "", "BAD"]), position: position))
            }
            for destination in Self.destinations {
                let expected = Self.perImpressionError(page, destination)
                var got: InteractionError?
                do {
                    try page.checkShapes()
                    try destination.validate(page)
                } catch { got = error }
                #expect((got == nil) == (expected == nil), "round \(round) \(destination.name): \(String(describing: got)) vs \(String(describing: expected))")
                guard let got, let expected else { continue }
                refused += 1
                #expect(got.kind == expected.error.kind, "round \(round) \(destination.name)")
                #expect(got.message.hasSuffix(": " + expected.error.message), "round \(round) \(destination.name): \(got)")
                #expect(got.message.hasPrefix("impression "), "round \(round) \(destination.name): \(got)")
            }
        }
        #expect(refused > 100)
    }

    @Test func aPageWithOneBadImpressionAmongGoodOnesIsRefusedWholeAndNamesIt() async throws {
        for (destination, badProduct) in [(Self.destinations[1], ""), (Self.destinations[2], "BAD")] {
            let tracker = try PageImpressionsTests.tracker(ScriptedTransport([]), destination: destination)
            var page = PageImpressionsTests.page()
            page.impressions.removeFirst() // Reteno has no block impressions
            page.impressions[6].productId = badProduct
            do {
                try tracker.track(page)
                Issue.record("\(destination.name): a page with a bad impression was accepted")
            } catch {
                #expect(error.kind == .invalid)
                #expect(error.message.contains("impression 6 of the page (instanceId \"variant_42\", productId \"\(badProduct)\")"),
                        "\(destination.name): \(error)")
            }
            #expect(tracker.statistics.pending == 0)
            #expect(tracker.statistics.accepted == 0)
            #expect(tracker.statistics.refusedInvalid == page.impressions.count)
            page.impressions[6].productId = "P-7"
            #expect(try tracker.track(page).count == page.impressions.count)
            _ = await tracker.shutdown(deadline: .seconds(1))
        }
    }
}
