import Foundation
import Testing
import RecoKit


extension IntegrationSuite {
    /// Real processes: `recokit relay` killed with SIGKILL at random moments (while appending, while
    /// sending, while draining), then restarted with `--drain`. Every event a relay reported as accepted
    /// must reach the server.
    @Suite("Crash recovery: SIGKILL the relay at random moments", .serialized)
    struct RelayCrashTests {
        static func line(round: Int, number: Int) -> String {
            #"{"type":"click","instanceId":"rec_pdp_1","productId":"R\#(round)-\#(number)","position":\#(number % 12 + 1),"#
                + #""userId":"-897541074991628287","sessionId":"-2739101928374651","lang":"TR","pageUrl":"https://www.shop.example/"}"#
        }

        @Test func everyAcceptedEventSurvivesTwentyFourKills() async throws {
            let server = try ScriptedServer()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            // Some slow and failing replies so that kills also land while requests are in flight.
            try await server.script((0..<40).map { $0 % 3 == 0 ? ["delay": 0.05] : $0 % 5 == 0 ? ["status": 503] : [:] })
            var generator = SystemRandomNumberGenerator()
            let common = ["--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                          "--api-key", "test-key", "--origin", "www.shop.example"]
            var acceptedByRound: [Int: Int] = [:]
            var kills = 0
            for round in 1...6 {
                let durability = round % 2 == 0 ? "strict" : "batched"
                let relay = try RelayProcess(["relay"] + common + ["--durability", durability])
                relay.feed((1...20_000).map { Self.line(round: round, number: $0) })
                try await Task.sleep(for: .milliseconds(Int.random(in: 150...1200, using: &generator)))
                relay.kill()
                kills += 1
                acceptedByRound[round] = relay.accepted
                for _ in 0..<3 {
                    let drain = try RelayProcess(["relay"] + common + ["--drain", "--deadline", "2"])
                    try await Task.sleep(for: .milliseconds(Int.random(in: 10...250, using: &generator)))
                    drain.kill()
                    kills += 1
                }
            }
            let last = try RelayProcess(["relay"] + common + ["--drain", "--deadline", "60"])
            #expect(last.wait() == 0)
            #expect(last.stderr.contains("pending 0"), "final drain: \(last.stderr)")
            #expect(kills >= 20)
            #expect(acceptedByRound.values.contains { $0 >= 1000 }, "no relay got far enough to report progress: \(acceptedByRound)")

            let received = try await server.received()
            let byProduct = Dictionary(grouping: received, by: \.product)
            for (round, accepted) in acceptedByRound.sorted(by: { $0.key < $1.key }) where accepted > 0 {
                let missing = (1...accepted).filter { byProduct["R\(round)-\($0)"] == nil }
                #expect(missing.isEmpty, "round \(round): \(missing.count) of \(accepted) accepted events never arrived")
            }
            // Duplicates (re-sent after a kill) carry the same id as the original.
            for (product, copies) in byProduct where Set(copies.map(\.id)).count != 1 {
                Issue.record("\(product) arrived under several ids: \(Set(copies.map(\.id)))")
            }
            let inspection = try RelayProcess(["journal", directory.path])
            #expect(inspection.wait() == 0)
        }
    }
}
