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
    /// the same variables (`RECOKIT_SYSCALL_FAULT_SEED`; `RECOKIT_SYSCALL_FAULT_ROUNDS`, 6 rounds here by default).
    @Test func everyDeadLetterSurvivesARequeueWhoseSystemCallFails() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["RECOKIT_SYSCALL_FAULT_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        let rounds = environment["RECOKIT_SYSCALL_FAULT_ROUNDS"].flatMap(Int.init).map { max(1, $0 / 2) } ?? 6
        print("RequeueSystemCallFaultTests seed \(seed) (replay: RECOKIT_SYSCALL_FAULT_SEED=\(seed) swift test --filter everyDeadLetterSurvivesARequeue)")
        var random = SeededRandom(seed: seed)
        let count = 600
        var made: [String: Int] = [:]
        for round in 0...rounds {
            let server = try ScriptedServer()
            defer { server.stop() }
            let directory = Fixtures.temporaryDirectory()
            let log = Fixtures.temporaryDirectory().appendingPathExtension("log")
            defer {
                try? FileManager.default.removeItem(at: directory)
                try? FileManager.default.removeItem(at: log)
            }
            let common = ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                          "--api-key", "test-key", "--origin", "www.shop.example"]
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
            let status = requeue.wait()
            let counted = try #require(JournalFaultShim.CallLog(log), "\(what): no call log (status \(status)): \(requeue.stdout.suffix(600))")
            #expect(requeue.process.terminationReason == .exit, "\(what): the re-queue crashed: \(requeue.stdout.suffix(600))")
            if round == 0 {
                #expect(status == 0, "the counting run: \(requeue.stdout.suffix(600)) \(requeue.stderr.suffix(600))")
                made = counted.made
                print("RequeueSystemCallFaultTests: the calls a re-queue of \(lettered.count) letters makes: "
                      + made.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
                continue
            }
            if counted.fired > 0, error != "SHORT" || counted.first != "write" {
                let output = requeue.stdout + requeue.stderr
                let named = ["Input/output error", "No space left on device"].contains { output.contains($0) }
                #expect(status != 0 && named, "\(what): a failed \(counted.first) of \(counted.file) must show: status \(status), \(output.suffix(800))")
            }
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
