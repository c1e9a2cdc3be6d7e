import Foundation
import Testing
import RecoKitTesting

extension IntegrationSuite.JournalSystemCallFaultTests {
    /// A `recokit journal` command (`--requeue`, `--repair`) run once under one failed system call, as a
    /// round of the command's fault test runs it, and what came of it.
    struct CommandUnderAFault {
        /// The round's case in words, for messages.
        let what: String
        let status: Int32
        let counted: JournalFaultShim.CallLog
        /// The command's stdout and stderr, under the fault; then run again without it; then the drain's stderr.
        let output: String
        let again: String
        let drain: String
        /// The event ids the vendor has, once the drain ended.
        let received: Set<String>
    }

    /// Runs `recokit journal DIR <flag>` on `setting`'s journal for round `round` of a seeded test.
    ///
    /// Round 0 counts the command's calls on the journal's files into `made`, for the rounds to pick from
    /// (nil then). Any other round picks a call, its error and how many calls fail from it (`random`),
    /// runs the command under that fault, checks that no run crashed and that a failed call showed with
    /// the system's words, then runs it again without the fault (the operator), and a drain after it.
    /// `fails`: the command exits non-zero even without a fault (a repair that found damage).
    static func journalCommand(_ flag: String, round: Int, seed: UInt64, setting: Round, made: inout [String: Int],
                               random: inout SeededRandom, fails: Bool = false, about: String) async throws -> CommandUnderAFault? {
        let test = flag == "--requeue" ? "RequeueSystemCallFaultTests" : "RepairSystemCallFaultTests"
        let name = round == 0 ? "" : made.filter { $0.value > 0 }.keys.sorted().randomElement(using: &random) ?? ""
        let call = round == 0 ? 0 : Int.random(in: 1...max(1, made[name] ?? 1), using: &random)
        let error = errors.randomElement(using: &random)!
        let times = runs.randomElement(using: &random)!
        let what = "seed \(seed) round \(round): \(name) \(call) of \(made[name] ?? 0), \(error) ×\(times), \(about)"
        let command = try RelayProcess(["journal", setting.directory.path, flag],
                                       environment: JournalFaultShim.call(call, named: name, error: error, repeat: times,
                                                                          directory: setting.directory, log: setting.log))
        let (status, counted) = try finished(command, log: setting.log, counting: round == 0 && !fails, what: what)
        if fails { #expect(status != 0, "\(what): \(flag) fails its run: \(command.stdout.suffix(400))") }
        if round == 0 {
            made = counted.made
            print("\(test): the calls \(flag) makes when \(about): \(describe(made))")
            return nil
        }
        let output = command.stdout + command.stderr
        expectShown(counted, error: error, status: status, output: output, what: what)
        let again = try RelayProcess(["journal", setting.directory.path, flag])
        _ = again.wait()
        let drain = try RelayProcess(setting.relay + ["--drain", "--deadline", "30"])
        _ = drain.wait()
        let received = Set(try await setting.server.received().map(\.id))
        print("\(test): \(what): first failed \(counted.first) \(counted.file) (\(counted.fired) failed); status \(status)")
        return CommandUnderAFault(what: what, status: status, counted: counted, output: output, again: again.stdout + again.stderr,
                                  drain: drain.stderr, received: received)
    }
}
