import Foundation
import Testing
import RecoKit
import RecoKitTesting
import RecoTracking

/// The tracker's clock is the wall clock, and a wall clock steps: back after an NTP correction of a clock
/// that ran ahead (a machine whose hardware clock keeps local time, three hours ahead of UTC in Istanbul),
/// forward after a suspended machine wakes. A probe's time is a date of that clock; before, a clock set
/// back while the vendor was down held delivery back by the whole step (an hour's step, an hour without
/// delivery after the vendor was back). Now a probe never waits longer than the wait that set its time.
/// On the injected clock: no real waiting.
@Suite("A clock stepped back or forward never holds delivery back longer than the retry policy's wait")
struct ClockStepTests {
    /// Steps back in seconds: an hour, three hours (a hardware clock in local time), a day, a month.
    @Test(arguments: [-3_600.0, -10_800, -86_400, -2_592_000])
    func aClockSetBackDuringAnOutageDoesNotHoldDeliveryBack(step: TimeInterval) async throws {
        let clock = TestClock(jitter: 0.999)
        // Down for six requests (more than the batches in flight at first); the clock is set back while the
        // first probe waits.
        let transport = SteppingTransport(clock: clock, script: [(503, nil, step)] + Array(repeating: (503, nil, 0), count: 5))
        #expect(try await Self.delivered(30, through: transport, clock: clock) == 30)
        // Each probe waits its policy's delay (at most the 2 s maximum), not the step.
        #expect(!clock.sleeps.isEmpty)
        #expect(clock.sleeps.allSatisfy { $0 <= .seconds(2) }, "slept \(clock.sleeps) after a step of \(step) s")
    }

    /// Set back an hour between any two readings: between the failure that sets a probe's time and the
    /// prober's look at the clock too.
    @Test func aClockSetBackBetweenAnyTwoReadingsDoesNotHoldDeliveryBack() async throws {
        let clock = TestClock(jitter: 0.999)
        clock.stepAtEachReading = -3_600
        let transport = SteppingTransport(clock: clock, script: Array(repeating: (503, nil, 0), count: 6))
        #expect(try await Self.delivered(30, through: transport, clock: clock) == 30)
        #expect(!clock.sleeps.isEmpty)
        #expect(clock.sleeps.allSatisfy { $0 <= .seconds(2) }, "slept \(clock.sleeps)")
    }

    @Test func aRetryAfterIsWaitedOutOnceWhateverTheClockDoes() async throws {
        let clock = TestClock(jitter: 0.5)
        let transport = SteppingTransport(clock: clock, script: [(503, "30", -10_800), (200, nil, 0)])
        #expect(try await Self.delivered(3, through: transport, clock: clock) == 3)
        #expect(clock.sleeps == [.seconds(30)])
    }

    /// Outages of seeded lengths, with the clock stepped back or forward by up to 40 days after seeded
    /// answers (and `Retry-After`s among them): every event is delivered, and no probe waits longer than
    /// the wait its own failure asked for (the policy's 2 s at most, or that failure's `Retry-After`).
    /// `RECOKIT_CLOCK_SEED=N` replays.
    @Test func clockStepsAtAnyAnswerNeverStallDelivery() async throws {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_CLOCK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("clockStepsAtAnyAnswerNeverStallDelivery seed: \(seed) (replay: RECOKIT_CLOCK_SEED=\(seed) swift test --filter clockStepsAtAnyAnswer)")
        var random = SeededRandom(seed: seed)
        for round in 0..<12 {
            let clock = TestClock(jitter: Double.random(in: 0..<1, using: &random))
            var script: [(Int, String?, TimeInterval)] = []
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let retryAfter = Int.random(in: 0..<4, using: &random) == 0 ? "\(Int.random(in: 1...120, using: &random))" : nil
                let step: TimeInterval = switch Int.random(in: 0..<3, using: &random) {
                case 0: 0
                case 1: -Double.random(in: 1...3_456_000, using: &random)
                default: Double.random(in: 1...3_456_000, using: &random)
                }
                script.append((503, retryAfter, step))
            }
            let longest = script.compactMap { $0.1.flatMap(Int.init) }.max().map { Duration.seconds($0) } ?? .zero
            let transport = SteppingTransport(clock: clock, script: script)
            #expect(try await Self.delivered(20, through: transport, clock: clock) == 20, "round \(round), seed \(seed)")
            #expect(clock.sleeps.allSatisfy { $0 <= max(.seconds(2), longest) },
                    "round \(round), seed \(seed): slept \(clock.sleeps) for \(script)")
        }
    }

    /// Tracks `count` clicks with four senders and batches of ten, waits until they are delivered and shuts
    /// down; how many were delivered.
    static func delivered(_ count: Int, through transport: SteppingTransport, clock: TestClock) async throws -> Int {
        let tracker = try Tracker(destination: CountingDestination(), configuration: Fixtures.outageConfiguration(), transport: transport,
                                  clock: clock)
        for number in 1...count { try tracker.track(Fixtures.click("P-\(number)")) }
        await tracker.waitUntilDelivered()
        return await tracker.shutdown(deadline: .zero).delivered
    }
}

/// Answers from a script of (status, `Retry-After`, seconds the clock is set by while the sleep after the
/// answer lasts), then 200 to everything.
final class SteppingTransport: Transport, @unchecked Sendable {
    private let clock: TestClock
    private let lock = NSLock()
    private var script: [(Int, String?, TimeInterval)]

    init(clock: TestClock, script: [(Int, String?, TimeInterval)]) {
        self.clock = clock
        self.script = script
    }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        let step = lock.withLock { script.isEmpty ? nil : script.removeFirst() }
        guard let (status, retryAfter, seconds) = step else { return VendorReply(status: 200) }
        clock.step(by: seconds)
        return VendorReply(status: status, headers: retryAfter.map { ["Retry-After": $0] } ?? [:])
    }
}
