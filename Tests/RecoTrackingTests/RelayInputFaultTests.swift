import Foundation
import Testing

extension RelayProcessSuite {
    /// `recokit relay` when its stdin is not a plain blocking stream: a pipe its opener made non-blocking
    /// (as some runtimes make a child's pipes), or something that cannot be read. The first ended the
    /// relay before its first line came (`EAGAIN` taken for the end of input: exit 0, nothing taken, and
    /// the producer's next write met a closed pipe); the second was the end of input too, in silence.
    @Suite("recokit relay when its stdin is non-blocking or unreadable", .serialized)
    struct RelayInputFaultTests {
        @Test func aNonBlockingStdinIsWaitedOnLineByLine() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let relay = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--deadline", "20"],
                                             nonBlockingInput: true)
                // Nothing at first, then a line every 150 ms: each wait finds the pipe empty.
                try await Task.sleep(for: .milliseconds(300))
                for number in 1...6 {
                    relay.feed([RelayDamageTests.line(number)], keepOpen: true)
                    let taken = await relay.waitUntil(limit: .seconds(20)) { $0.acknowledged.count == number }
                    #expect(taken, "line \(number) not acknowledged: \(relay.stderr)")
                    try await Task.sleep(for: .milliseconds(150))
                }
                relay.closeInput()
                #expect(relay.wait() == 0, "\(relay.stderr)")
                #expect(relay.acknowledged.count == 6, "\(relay.stdout)")
                #expect(Set(try await server.received().map(\.product)) == Set((1...6).map { "D-\($0)" }))
            }
        }

        /// Standard input a directory (`< /`): the system's reason, exit 1, and the journal as it was.
        @Test func aStdinThatCannotBeReadIsAFailureWithTheReason() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let relay = try IntegrationSuite.RelayOutputFaultTests.ShellRelay(RelayDamageTests.relayArguments(directory, server) + ["--deadline", "5"],
                                                                 redirections: "< /")
                let status = await relay.exitStatus(within: .seconds(60))
                #expect(status == 1, "\(relay.stderr)")
                #expect(relay.stderr.contains("relay: cannot read stdin: is a directory; no more input was read"), "\(relay.stderr)")
            }
        }
    }
}
