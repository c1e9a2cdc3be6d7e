import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

/// Senders sleep until something can be sent: these trackers never look at the journal on their own
/// (an hour between looks, an hour before a partial batch is due), so only a wake-up delivers.
@Suite("Senders wake on a full batch, a flush and shutdown; waitUntilIdle waits for delivery")
struct SenderWakeUpTests {
    func sleepyTracker(maxEvents: Int = 100, transport: ScriptedTransport = ScriptedTransport([])) throws -> Tracker {
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.flushInterval = .seconds(3600)
        configuration.idlePollInterval = .seconds(3600)
        let destination = SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:9")!, apiKey: "k", origin: "shop.example",
                                                maxEvents: maxEvents)
        return try Tracker(destination: destination, configuration: configuration, transport: transport)
    }

    @Test func aFullBatchWakesTheSenders() async throws {
        let transport = ScriptedTransport([])
        let tracker = try sleepyTracker(maxEvents: 5, transport: transport)
        for number in 1...5 { try tracker.track(Fixtures.click("P-\(number)")) }
        #expect(await tracker.waitUntilIdle(timeout: .seconds(60)))
        #expect(tracker.statistics.delivered == 5)
        #expect(transport.requests.count == 1)
        _ = await tracker.shutdown(deadline: .seconds(5))
    }

    @Test func aFlushWakesTheSendersForAPartialBatch() async throws {
        let tracker = try sleepyTracker()
        for number in 1...3 { try tracker.track(Fixtures.click("P-\(number)")) }
        try await tracker.flush()
        #expect(await tracker.waitUntilIdle(timeout: .seconds(60)))
        #expect(tracker.statistics.delivered == 3)
        _ = await tracker.shutdown(deadline: .seconds(5))
    }

    @Test func shutdownDeliversWhatIsLeftWithoutAFlush() async throws {
        let tracker = try sleepyTracker()
        for number in 1...4 { try tracker.track(Fixtures.click("P-\(number)")) }
        let summary = await tracker.shutdown(deadline: .seconds(60))
        #expect(summary == ShutdownSummary(delivered: 4, pending: 0, deadLettered: 0))
    }

    @Test func waitUntilIdleGivesUpWhileTheVendorFails() async throws {
        let failing = ScriptedTransport(Array(repeating: .reply(VendorReply(status: 503)), count: 1000))
        let tracker = try sleepyTracker(transport: failing)
        try tracker.track(Fixtures.click("P-1"))
        try await tracker.flush()
        #expect(await tracker.waitUntilIdle(timeout: .milliseconds(200)) == false)
        #expect(tracker.statistics.pending == 1)
        _ = await tracker.shutdown(deadline: .zero)
    }
}
