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
            let (server, directory, log, common) = (setting.server, setting.directory, setting.log, setting.relay)
            // One product in ten refused: their lines are dead-lettered.
            let refused = Set(stride(from: 10, through: count, by: 10).map { "F\(round)-\($0)" })
            try await server.configure(bad: refused.sorted())
            let relay = try RelayProcess(common + ["--deadline", "20"])
            relay.feed((1...count).map { Self.line(round: round, number: $0) })
            #expect(relay.wait() == 0 || relay.stderr.contains("dead-lettered"), "\(relay.stderr.suffix(600))")
            let lettered = relay.acknowledged.filter { refused.contains("F\(round)-\($0.key)") }
            try await server.configure(bad: [])

            // Round 0 only counts the calls a re-queue makes, for the rounds to pick from.
            let name = round == 0 ? "" : made.filter { $0.value > 0 }.keys.sorted().randomElement(using: &random) ?? ""
            let call = round == 0 ? 0 : Int.random(in: 1...max(1, made[name] ?? 1), using: &random)
            let error = Self.errors.randomElement(using: &random)!
            let times = Self.runs.randomElement(using: &random)!
            let what = "seed \(seed) round \(round): \(name) \(call) of \(made[name] ?? 0), \(error) ×\(times), \(lettered.count) lines dead-lettered"
            let requeue = try RelayProcess(["journal", directory.path, "--requeue"],
                                           environment: JournalFaultShim.call(call, named: name, error: error, repeat: times, directory: directory, log: log))
            let (status, counted) = try Self.finished(requeue, log: log, counting: round == 0, what: what)
            if round == 0 {
                made = counted.made
                print("RequeueSystemCallFaultTests: the calls a re-queue of \(lettered.count) letters makes: \(Self.describe(made))")
                continue
            }
            Self.expectShown(counted, error: error, status: status, output: requeue.stdout + requeue.stderr, what: what)
            // The operator runs it again, the disk well, and a relay drains.
            let again = try RelayProcess(["journal", directory.path, "--requeue"])
            _ = again.wait()
            let drain = try RelayProcess(common + ["--drain", "--deadline", "30"])
            _ = drain.wait()
            let received = Set(try await server.received().map(\.id))
            let missing = lettered.filter { !$0.value.allSatisfy(received.contains) }.keys.sorted()
            print("RequeueSystemCallFaultTests: \(what): first failed \(counted.first) \(counted.file) (\(counted.fired) failed); "
                  + "re-queue status \(status); missing \(missing.count)")
            let lost = "\(what): \(missing.count) dead-lettered lines never delivered, lines \(missing.prefix(5))…; re-queue: "
                + "\(requeue.stdout.suffix(400)) \(requeue.stderr.suffix(400)); again: \(again.stdout.suffix(300)); drain: \(drain.stderr.suffix(300))"
            #expect(missing.isEmpty, "\(lost)")
        }
    }
}
