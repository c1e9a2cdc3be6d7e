import Foundation
import Testing
import RecoKit
import RecoTracking

extension RelayProcessSuite {
    /// `recokit relay` meeting values nobody planned for, in its input and in its vendor's replies. Each
    /// of the two below crashed the relay (a `Double` converted to an `Int64` that cannot hold it).
    @Suite("recokit relay: values outside every range", .serialized)
    struct RelayOutOfRangeTests {
        static func line(_ number: Int, occurred: String? = nil) -> String {
            #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-\#(number)","userId":"u1","sessionId":"s1""#
                + (occurred.map { #","occurred":\#($0)}"# } ?? "}")
        }

        static func relay(_ directory: URL, _ server: ScriptedServer, _ more: [String]) throws -> RelayProcess {
            try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                              "--api-key", "k"] + more)
        }

        /// Lines whose time no record can hold, or that lies outside the years 1970 to 9999, among good
        /// lines: each is refused with its number and the field named; every other line is delivered.
        @Test func linesWithTimesOutsideTheTrackableYearsAreRefusedByNumber() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                var lines = (1...60).map { Self.line($0) }
                let times = ["9223372036854775807", "-9223372036854775808", "253402300800000", "-1", #""10000-01-01T00:00:00Z""#,
                             "1700000000000000000"]
                for (offset, time) in times.enumerated() { lines[10 * offset + 4] = Self.line(10 * offset + 5, occurred: time) }
                lines[7] = Self.line(8, occurred: "253402300799999")   // the last millisecond of 9999: taken
                let relay = try Self.relay(directory, server, ["--deadline", "20"])
                relay.feed(lines)
                let status = relay.wait()
                #expect(relay.process.terminationReason == .exit, "the relay crashed: \(relay.stderr)")
                #expect(status == 1, "refused lines make a failing exit: \(relay.stderr)")
                #expect(relay.refused.keys.sorted() == [5, 15, 25, 35, 45, 55], "\(relay.stderr)")
                for (number, reason) in relay.refused { #expect(reason.contains("\"occurred\""), "line \(number): \(reason)") }
                #expect(relay.acknowledged.count == 54)
                #expect(Set(try await server.received().map(\.product)).count == 54)
            }
        }

        /// The vendor answers `Content-Length: 9223372036854775807`, which stops any process whose request
        /// went through `URLSessionTransport` on Linux (SIGILL in Foundation, before any delegate; see
        /// URLSessionTransport). Each run of the relay dies on the batch and the next says the last run
        /// stopped while delivering it; once `interruptedDeliveryLimit` runs have, the batch is
        /// dead-lettered with the reason instead of sent again, and the relay runs on.
        @Test func aReplyThatStopsTheRelayEachTimeIsNotSentForEver() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let limit = TrackerConfiguration().interruptedDeliveryLimit
                try await server.script(Array(repeating: ["hugeLength": 1], count: 4 * limit))
                // No backtrace for the expected crash (it takes seconds to write).
                let quiet = ["SWIFT_BACKTRACE": "enable=no"]
                let first = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                              server.base.absoluteString, "--api-key", "k", "--deadline", "10"], environment: quiet)
                first.feed((1...5).map { Self.line($0) })
                _ = first.wait()
                #expect(first.process.terminationReason == .uncaughtSignal, "the reply did not stop the relay: \(first.stderr)")
                var died = 1
                var said: [String] = []
                while died <= limit + 2 {
                    let run = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                                server.base.absoluteString, "--api-key", "k", "--drain", "--deadline", "10"],
                                               environment: quiet)
                    let status = run.wait()
                    said.append(run.stderr)
                    guard run.process.terminationReason == .uncaughtSignal else {
                        #expect(status == 0, "\(run.stderr)")
                        break
                    }
                    died += 1
                }
                #expect(died > 1 && died <= limit + 1, "the relay died \(died) times on the same reply")
                #expect(said.allSatisfy { $0.contains("the last run stopped while delivering") }, "\(said)")
                let journal = try RelayProcess(["journal", directory.path])
                #expect(journal.wait() == 0)
                #expect(journal.stdout.hasPrefix("pending 0\n"), "\(journal.stdout)")
                #expect(journal.stdout.contains("cut short by the process stopping"), "\(journal.stdout)")
            }
        }

        /// The vendor answers 503 with `Retry-After: 9223372036854775807` (seconds). The relay waits (ten
        /// minutes at most), exits at its deadline with every line acknowledged and still pending, and the
        /// next run, the vendor answering again, delivers them.
        @Test func aRetryAfterNoClockReachesLeavesTheLinesPending() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                // One such reply for each request the relay could have under way at once (its batches may
                // go out together before the first reply closes the gate).
                try await server.script(Array(repeating: ["status": 503, "retryAfter": "9223372036854775807"], count: 16))
                let relay = try Self.relay(directory, server, ["--deadline", "2"])
                relay.feed((1...20).map { Self.line($0) })
                let status = relay.wait()
                #expect(relay.process.terminationReason == .exit, "the relay crashed: \(relay.stderr)")
                #expect(status == 0, "\(relay.stderr)")
                #expect(relay.acknowledged.count == 20)
                #expect(try await server.received().isEmpty)

                let journal = try RelayProcess(["journal", directory.path])
                #expect(journal.wait() == 0)
                #expect(journal.stdout.hasPrefix("pending 20\n"), "\(journal.stdout)")
                // The vendor answering again: another server, whose script holds no refusal left over.
                let answering = try await ScriptedServer.started()
                defer { answering.stop() }
                let drain = try Self.relay(directory, answering, ["--drain", "--deadline", "20"])
                #expect(drain.wait() == 0, "\(drain.stderr)")
                #expect(Set(try await answering.received().map(\.product)) == Set((1...20).map { "P-\($0)" }))
            }
        }
    }
}
