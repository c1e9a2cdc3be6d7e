import Foundation
import Testing
import RecoKit
import RecoTracking

/// An outage of any length: while the vendor is down one sender probes with one event at most every
/// `maximumDelay` (2 s) and the others wait, so delivery resumes within 2 s of the vendor's recovery and
/// the outage costs one request per probe interval. On the injected clock: no real waiting, no timing.
@Suite("Outages: one sender probes, all resume within 2 s of recovery")
struct OutageProbeTests {
    /// Outage length in seconds × the clock's fixed jitter (0 = shortest waits, 0.999 = longest).
    static let outages: [(Int, Double)] = [(7, 0), (30, 0.5), (30, 0.999), (600, 0.5), (3600, 0.999)]

    @Test(arguments: outages)
    func deliveryResumesWithinTwoSecondsOfRecoveryWithoutARetryStorm(outageSeconds: Int, jitter: Double) async throws {
        let clock = TestClock(jitter: jitter)
        let recovery = clock.now().addingTimeInterval(Double(outageSeconds))
        let transport = OutageTransport(clock: clock, downUntil: recovery)
        let tracker = try Tracker(destination: CountingDestination(), configuration: Fixtures.outageConfiguration(), transport: transport,
                                  clock: clock)
        var ids: Set<String> = []
        for number in 1...200 { ids.insert(try tracker.track(Fixtures.click("P-\(number)")).description) }
        await tracker.waitUntilDelivered()
        _ = await tracker.shutdown(deadline: .zero)

        let requests = transport.requests
        #expect(Set(requests.filter(\.stored).flatMap(\.ids)) == ids, "every event is delivered")
        let failed = requests.filter { !$0.stored }
        let firstDelivery = try #require(requests.first { $0.stored })
        let resumedAfter = firstDelivery.at.timeIntervalSince(recovery)
        #expect(resumedAfter >= 0 && resumedAfter <= 2, "the first delivery came \(resumedAfter) s after the vendor was back")
        // The senders that were sending when the outage began fail once each with whole batches; from
        // then on only probes of one event go, at least 0.25 s apart (half of the first ceiling), then
        // at least 1 s apart (half of the 2 s maximum).
        #expect(failed.filter { $0.ids.count > 1 }.count <= 4)
        let probes = failed.filter { $0.ids.count == 1 }
        #expect(probes.count <= outageSeconds + 4, "\(probes.count) probes in a \(outageSeconds) s outage")
        #expect(probes.count >= outageSeconds / 2 - 1, "the vendor must be probed at least every 2 s: \(probes.count) probes")
        for (earlier, later) in zip(probes, probes.dropFirst()) {
            let gap = later.at.timeIntervalSince(earlier.at)
            #expect(gap >= 0.25 && gap <= 2, "probes \(gap) s apart")
        }
    }

    @Test func retryAfterLongerThanTheProbeIntervalIsHonoured() async throws {
        let clock = TestClock(jitter: 0.5)
        let transport = ScriptedTransport([.reply(VendorReply(status: 503, headers: ["Retry-After": "30"])),
                                           .reply(VendorReply(status: 503)), .reply(VendorReply(status: 200))])
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.maxConcurrentRequests = 4
        configuration.flushInterval = .milliseconds(1)
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, transport: transport, clock: clock)
        for number in 1...3 { try tracker.track(Fixtures.click("P-\(number)")) }
        await tracker.waitUntilDelivered()
        _ = await tracker.shutdown(deadline: .zero)
        // 30 s from Retry-After, then attempt 2's wait: 1 s ceiling × 0.75.
        #expect(clock.sleeps == [.seconds(30), .milliseconds(750)])
        #expect(tracker.statistics.delivered == 3)
    }
}

/// Down (503) until the clock reaches `downUntil`, then stores every batch; records each request's
/// clock time, event ids and outcome.
final class OutageTransport: Transport, @unchecked Sendable {
    struct Request {
        let at: Date
        let ids: [String]
        let stored: Bool
    }

    private let clock: TestClock
    private let downUntil: Date
    private let lock = NSLock()
    private var sent: [Request] = []

    init(clock: TestClock, downUntil: Date) {
        self.clock = clock
        self.downUntil = downUntil
    }

    var requests: [Request] { lock.withLock { sent } }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        let now = clock.now()
        let ids = String(decoding: request.body, as: UTF8.self).split(separator: "\n").map(String.init)
        let up = now >= downUntil
        lock.withLock { sent.append(Request(at: now, ids: ids, stored: up)) }
        return VendorReply(status: up ? 200 : 503)
    }
}
