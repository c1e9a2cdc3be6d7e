import Foundation
import Testing
import RecoKitTesting

extension IntegrationSuite.JournalSystemCallFaultTests {
    /// `recokit journal --requeue` (dead letters back to pending) with one of its system calls on the
    /// journal's files failing, as ``everyAcknowledgedLineSurvivesAFailedSystemCall()`` does for the relay:
    /// a relay dead-letters the lines of the products the vendor refuses, the vendor then takes them, a
    /// re-queue meets the fault, the operator runs it again without, and a drain delivers. No run may
    /// crash, a failed call shows in the exit status with the system's words, and every dead-lettered
    /// line reaches the vendor: a letter is dropped only once its event is pending again. Seeded with
    /// the same variables (`RECOKIT_SYSCALL_FAULT_SEED`; `RECOKIT_SYSCALL_FAULT_ROUNDS`, halved here; 6 rounds by default).
    @Test func everyDeadLetterSurvivesARequeueWhoseSystemCallFails() async throws {
        let (seed, rounds) = Self.choices("everyDeadLetterSurvivesARequeueWhoseSystemCallFails", rounds: 6, share: 2)
        var random = SeededRandom(seed: seed)
        let count = 600
        var made: [String: Int] = [:]
        for round in 0...rounds {
            let setting = try Round()
            let (server, common) = (setting.server, setting.relay)
            // One product in ten refused: their lines are dead-lettered.
            let refused = Set(stride(from: 10, through: count, by: 10).map { "F\(round)-\($0)" })
            try await server.configure(bad: refused.sorted())
            let relay = try RelayProcess(common + ["--deadline", "20"])
            relay.feed((1...count).map { Self.line(round: round, number: $0) })
            #expect(relay.wait() == 0 || relay.stderr.contains("dead-lettered"), "\(relay.stderr.suffix(600))")
            let lettered = relay.acknowledged.filter { refused.contains("F\(round)-\($0.key)") }
            try await server.configure(bad: [])
            guard let run = try await Self.journalCommand("--requeue", round: round, seed: seed, setting: setting, made: &made, random: &random,
                                                          about: "\(lettered.count) lines are dead-lettered") else { continue }
            let missing = lettered.filter { !$0.value.allSatisfy(run.received.contains) }.keys.sorted()
            let lost = "\(run.what): \(missing.count) dead-lettered lines never delivered, lines \(missing.prefix(5))…; re-queue: "
                + "\(run.output.suffix(800)); again: \(run.again.suffix(300)); drain: \(run.drain.suffix(300))"
            #expect(missing.isEmpty, "\(lost)")
        }
    }
}
