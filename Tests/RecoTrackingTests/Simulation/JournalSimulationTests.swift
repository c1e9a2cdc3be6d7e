import Foundation
import Testing
@testable import RecoTracking
import RecoKitTesting

/// The journal under seeded random schedules of work and faults (``JournalSimulation``).
///
/// `swift test --filter JournalSimulationTests` runs `RECOKIT_SIMULATION_SCHEDULES` schedules (2,000 by
/// default) from `RECOKIT_SIMULATION_FIRST_SEED` (1 by default); `RECOKIT_SIMULATION_SEED=N` replays one.
/// Schedules run on a thread of their own (``blockingWork``): a minute of CPU on one of Swift's
/// cooperative threads, beside another such test, stops every other test's tasks for as long.
@Suite("Journal simulation: seeded schedules of work, crashes and disk faults")
struct JournalSimulationTests {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    @Test func everyScheduleKeepsEveryPromisedEvent() async throws {
        let seeds: [UInt64]
        if let one = Self.environment["RECOKIT_SIMULATION_SEED"].flatMap(UInt64.init) {
            seeds = [one]
        } else {
            let count = Self.environment["RECOKIT_SIMULATION_SCHEDULES"].flatMap(UInt64.init) ?? 2_000
            let first = Self.environment["RECOKIT_SIMULATION_FIRST_SEED"].flatMap(UInt64.init) ?? 1
            seeds = Array(first..<(first + count))
        }
        print("journal simulation: seeds \(seeds.first!)...\(seeds.last!) (\(seeds.count) schedules)")
        let failures = try await blockingWork { () -> [String] in
            var failures: [String] = []
            for seed in seeds {
                do {
                    var simulation = try JournalSimulation(seed: seed)
                    try simulation.run()
                } catch {
                    failures.append("\(error)")
                    if failures.count >= 3 { break }
                }
            }
            return failures
        }
        for failure in failures { Issue.record("\(failure)") }
        #expect(failures.isEmpty)
    }

    /// The simulation can fail: a journal that forgets its checkpoint's rule is caught. (A check that
    /// the checks bite: the model is handed a journal that deletes a segment it still needs.)
    @Test func theChecksCatchALostSegment() async throws {
        let caught = try await blockingWork { () -> Int in
            var caught = 0
            for seed in UInt64(1)...40 {
                var simulation = try JournalSimulation(seed: seed, sabotage: .deleteOldestSegmentOnRestart)
                do { try simulation.run() } catch { caught += 1 }
            }
            return caught
        }
        #expect(caught > 0, "deleting a segment the journal still needed went unnoticed in 40 schedules")
    }
}
