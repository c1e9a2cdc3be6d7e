import Foundation
import Testing
import RecoKit

extension IntegrationSuite {
    /// `recokit relay` under a file size limit (`ulimit -f`, a container's or a shell's): the journal's
    /// segment meets the limit as it grows. The write that passes it fails (the signal that would kill the
    /// process, SIGXFSZ, is ignored), the relay names the file and the reason and exits 1, and every line
    /// it acknowledged is in the journal: a drain without the limit delivers them all.
    @Suite("recokit relay under a file size limit", .serialized)
    struct FileSizeLimitTests {
        @Test func aSegmentThatMeetsTheFileSizeLimitStopsTheRelayAndLosesNothingAcknowledged() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            try await server.configure(down: true)
            let arguments = ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                             "--api-key", "k", "--deadline", "0", "--durability", "strict"]
            // 256 blocks: 128 KiB where the shell counts 512-byte blocks (dash), 256 KiB where 1024 (bash).
            let relay = try RelayOutputFaultTests.ShellRelay(arguments, prelude: "ulimit -f 256;")
            // A line at a time, so that lines are acknowledged before the segment reaches the limit.
            for number in 1...3000 {
                relay.feed([RelayOutputFaultTests.click(number)], close: false)
                if number % 100 == 0 { try await Task.sleep(for: .milliseconds(10)) }
                if !relay.process.isRunning { break }
            }
            let status = await relay.exitStatus(within: .seconds(60))
            #expect(status == 1, "exit 1, not killed by SIGXFSZ (153): \(relay.stderr.suffix(600))")
            #expect(relay.stderr.contains("segment-000000000001.log: File too large"), "\(relay.stderr.suffix(600))")
            let acknowledged = relay.stdout.split(separator: "\n").compactMap { line -> [String]? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return object["ids"] as? [String]
            }
            print("FileSizeLimitTests: \(acknowledged.count) lines acknowledged before the limit")
            #expect(acknowledged.count > 100, "lines were acknowledged before the limit: \(acknowledged.count)")
            #expect(acknowledged.count < 3000, "the limit was met before the last line: \(acknowledged.count)")
            try await server.configure(down: false)
            let drain = try RelayProcess(arguments + ["--drain", "--deadline", "30"])
            #expect(drain.wait() == 0, "\(drain.stderr)")
            let received = Set(try await server.received().map(\.id))
            let lost = acknowledged.filter { !$0.allSatisfy(received.contains) }
            #expect(lost.isEmpty, "\(lost.count) acknowledged lines not delivered, the first \(lost.first ?? [])")
        }
    }
}
