import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

@Suite("Tracker: shutdown, splitting, configuration faults")
struct TrackerLifecycleTests {
    func configuration(_ directory: URL?) -> TrackerSetup {
        var configuration = TrackerSetup(journal: directory, durability: directory == nil ? .memory : .strict)
        configuration.flushInterval = .milliseconds(1)
        configuration.idlePollInterval = .milliseconds(1)
        return configuration
    }

    @Test func shutdownTwiceIsSafeAndLeavesUndeliveredEventsInTheJournal() async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Every reply is a 503: nothing can be delivered before the deadline.
        let failing = ScriptedTransport(Array(repeating: .reply(VendorReply(status: 503)), count: 10_000))
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration(directory), transport: failing)
        for number in 1...25 { try tracker.track(Fixtures.click("P-\(number)")) }
        async let first = tracker.shutdown(deadline: .milliseconds(300))
        async let second = tracker.shutdown(deadline: .seconds(30))
        let (one, two) = await (first, second)
        #expect(one == two)
        #expect(one == ShutdownSummary(delivered: 0, pending: 25, deadLettered: 0))
        #expect(await tracker.shutdown(deadline: .zero) == one)
        #expect { try tracker.track(Fixtures.click("P-26")) } throws: { ($0 as? TrackingError) == .shutDown }
        // The next run finds all 25 and delivers them.
        let accepting = ScriptedTransport([])
        let next = try Tracker(destination: CountingDestination(), configuration: configuration(directory), transport: accepting)
        #expect(next.recoveryReport.pendingEvents == 25)
        await next.waitUntilDelivered()
        #expect(await next.shutdown(deadline: .seconds(5)) == ShutdownSummary(delivered: 25, pending: 0, deadLettered: 0))
    }

    @Test func forcePushFlushesAtOnceButNotMoreOftenThanItsInterval() async throws {
        let transport = ScriptedTransport([])
        var configuration = configuration(nil)
        configuration.flushInterval = .seconds(3600)
        configuration.forcePushInterval = .seconds(3600)
        let tracker = try Tracker(destination: RetenoDestination(accessKey: "k"), configuration: configuration, transport: transport)
        for event in Interaction.recomEvents(variant: "r1107v1482", impressions: ["240-LV09", "318-KZ11"], forcePush: true) {
            try tracker.track(event)
        }
        while tracker.statistics.delivered < 2 { try await Task.sleep(for: .milliseconds(5)) }
        // A second forcePush within the interval waits for the normal batch rules (here: an hour).
        try tracker.track(Interaction.recomEvents(variant: "r1107v1482", impressions: ["557-TR02"], forcePush: true)[0])
        try await Task.sleep(for: .milliseconds(200))
        #expect(tracker.statistics.delivered == 2)
        #expect(tracker.statistics.pending == 1)
        #expect(transport.requests.count == 1)
        try await tracker.flush()
        await tracker.waitUntilDelivered()
        #expect(tracker.statistics.delivered == 3)
        _ = await tracker.shutdown(deadline: .zero)
    }

    @Test func tooLargeSplitsTheBatchWithoutDeadLettering() async throws {
        let transport = SizeLimitedTransport(maxEvents: 3)
        var configuration = configuration(nil)
        configuration.maxConcurrentRequests = 1
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, transport: transport, clock: TestClock())
        var ids: [String] = []
        for number in 1...20 { ids.append(try tracker.track(Fixtures.click("P-\(number)")).description) }
        try await tracker.flush()
        await tracker.waitUntilDelivered()
        #expect(tracker.statistics.delivered == 20)
        #expect(tracker.statistics.deadLettered == 0)
        #expect(transport.stored.sorted() == ids.sorted())
        #expect(transport.refusedBatches > 0)
        _ = await tracker.shutdown(deadline: .zero)
    }

    @Test func aSegmentifySetupFaultKeepsEveryEventAndSaysWhy() async throws {
        let reply = VendorReply(status: 200, body: Data(#"{"statusCode":"NO_DOMAIN_APIKEY_MATCH"}"#.utf8))
        let transport = ScriptedTransport(Array(repeating: .reply(reply), count: 10_000))
        let clock = TestClock()
        let destination = SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:9")!, apiKey: "k", origin: "wrong.example")
        var configuration = configuration(nil)
        configuration.maxConcurrentRequests = 1
        let tracker = try Tracker(destination: destination, configuration: configuration, transport: transport, clock: clock)
        for number in 1...10 { try tracker.track(Fixtures.click("P-\(number)")) }
        try await tracker.flush()
        while transport.requests.count < 3 { try await Task.sleep(for: .milliseconds(5)) }
        let statistics = tracker.statistics
        #expect(statistics.deadLettered == 0)
        #expect(statistics.pending == 10)
        #expect(statistics.configurationFaults >= 2)
        #expect(statistics.lastError?.contains("NO_DOMAIN_APIKEY_MATCH") == true)
        #expect(clock.sleeps.allSatisfy { $0 == .seconds(60) })
        _ = await tracker.shutdown(deadline: .zero)
    }
}

/// Answers 413 to batches above `maxEvents`; stores the rest.
final class SizeLimitedTransport: Transport, @unchecked Sendable {
    let maxEvents: Int
    private let lock = NSLock()
    private var ids: [String] = []
    private var refused = 0
    init(maxEvents: Int) { self.maxEvents = maxEvents }
    var stored: [String] { lock.withLock { ids } }
    var refusedBatches: Int { lock.withLock { refused } }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        let batch = String(decoding: request.body, as: UTF8.self).split(separator: "\n").map(String.init)
        return lock.withLock {
            if batch.count > maxEvents {
                refused += 1
                return VendorReply(status: 413)
            }
            ids += batch
            return VendorReply(status: 200)
        }
    }
}
