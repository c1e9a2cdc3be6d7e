import Foundation
import Testing
import RecoKit

extension IntegrationSuite {
    /// `recokit relay` and `recokit journal` as a user runs them.
    @Suite("recokit relay and recokit journal", .serialized)
    struct RelayCommandTests {
        @Test func malformedLinesAreReportedWithTheirNumbersAndSkipped() async throws {
            let server = try ScriptedServer()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            try await server.configure(bad: ["BAD-9"])
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                          server.base.absoluteString, "--api-key", "k", "--deadline", "20"])
            var lines = (1...2500).map { #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-\#($0)","userId":"u1","sessionId":"s1"}"# }
            lines[2] = #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-3","userId":"u1""#
            lines[6] = #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-7","sessionId":"s1"}"#
            lines[8] = #"{"type":"click","instanceId":"rec_pdp_1","productId":"BAD-9","userId":"u1","sessionId":"s1"}"#
            relay.feed(lines)
            #expect(relay.wait() == 1, "malformed lines make a failing exit once the rest is delivered")
            let stderr = relay.stderr
            #expect(stderr.contains("relay: line 3: invalid JSON"))
            #expect(stderr.contains("relay: line 7: invalid interaction: a click needs a non-empty userId"))
            #expect(stderr.contains("accepted 1000\n"))
            #expect(stderr.contains("accepted 2000\n"))
            #expect(stderr.contains("accepted 2498\n"))
            #expect(stderr.contains("relay: delivered 2497, pending 0, dead-lettered 1, malformed 2"))
            #expect(Set(try await server.received().map(\.product)).count == 2497)

            let journal = try RelayProcess(["journal", directory.path])
            #expect(journal.wait() == 0)
            #expect(journal.stdout.hasPrefix("pending 0\ndead-lettered 1\n"))
            #expect(journal.stdout.contains("click rec_pdp_1 BAD-9: Segmentify BAD_INPUT"))
            try await server.configure(bad: [])
            let requeue = try RelayProcess(["journal", directory.path, "--requeue"])
            #expect(requeue.wait() == 0)
            #expect(requeue.stdout.hasPrefix("requeued 1 dead letters\npending 1\ndead-lettered 0\n"))
            let drain = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                          server.base.absoluteString, "--api-key", "k", "--drain"])
            #expect(drain.wait() == 0)
            #expect(drain.stderr.contains("relay: delivered 1, pending 0, dead-lettered 0"))
            #expect(try await server.received().contains { $0.product == "BAD-9" })
        }
    }
}
