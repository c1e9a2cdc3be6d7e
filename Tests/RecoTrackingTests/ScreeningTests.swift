import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// A destination's own screening, seen from outside: what it refuses is dead-lettered with its reason and
/// never sent; one that says it screens nothing is not asked, and sends everything.
@Suite("Screening: a destination's refusals before sending")
struct ScreeningTests {
    /// Refuses products whose id starts with `withdrawn-`, when it screens at all.
    struct WithdrawingDestination: TrackingDestination {
        var screens = true
        var name: String { "withdrawing" }
        var limits: DestinationLimits { DestinationLimits(maxEvents: 100, maxBytes: 1 << 20) }
        func validate(_ interaction: Interaction) throws(InteractionError) {}
        func screen(_ record: EventRecord, now: Date) -> String? {
            screens && record.string(.productId)?.hasPrefix("withdrawn-") == true ? "the product was withdrawn" : nil
        }
        func request(for records: [EventRecord]) -> VendorRequest {
            VendorRequest(url: URL(string: "http://127.0.0.1:9/events")!, headers: [],
                          body: Data(records.compactMap { $0.string(.productId) }.joined(separator: "\n").utf8))
        }
    }

    func deliver(_ destination: WithdrawingDestination) async throws -> (sent: [String], letters: [(String, String)]) {
        let transport = ScriptedTransport([])
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.flushInterval = .milliseconds(1)
        let tracker = try Tracker(destination: destination, configuration: configuration, transport: transport)
        for product in ["240-LV09", "withdrawn-318", "512-AB01", "withdrawn-77"] {
            try tracker.track(Interaction(kind: .click, instanceId: "rec_1", interactionId: "act_1", productId: product, position: 1))
        }
        await tracker.waitUntilDelivered()
        let letters = try await tracker.deadLetters().map { ($0.event.interaction.productId ?? "", $0.reason) }
        _ = await tracker.shutdown(deadline: .zero)
        let sent = transport.requests.flatMap { String(decoding: $0.body, as: UTF8.self).split(separator: "\n").map(String.init) }
        return (sent, letters)
    }

    @Test func screenedEventsAreDeadLetteredWithTheReasonAndNotSent() async throws {
        let (sent, letters) = try await deliver(WithdrawingDestination())
        #expect(sent == ["240-LV09", "512-AB01"])
        #expect(letters.map(\.0) == ["withdrawn-318", "withdrawn-77"])
        #expect(letters.allSatisfy { $0.1 == "the product was withdrawn" })
    }

    @Test func aDestinationThatScreensNothingIsNotAsked() async throws {
        let (sent, letters) = try await deliver(WithdrawingDestination(screens: false))
        #expect(sent == ["240-LV09", "withdrawn-318", "512-AB01", "withdrawn-77"])
        #expect(letters.isEmpty)
    }
}
