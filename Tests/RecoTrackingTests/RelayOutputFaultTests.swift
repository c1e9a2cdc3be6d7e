import Foundation
import Testing
import RecoKit

extension IntegrationSuite {
    /// `recokit relay` when what it writes cannot be written: acknowledgements to a full disk or to a reader
    /// that went away, standard error nobody reads, standard descriptors closed at start. Each used to be
    /// silent or a crash: acknowledgements lost with exit 0, a trap at the first line on standard error,
    /// acknowledgements written into the journal's own files.
    @Suite("recokit relay when its output cannot be written", .serialized)
    struct RelayOutputFaultTests {
        static func click(_ number: Int) -> String {
            #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-\#(number)","userId":"u1","sessionId":"s1"}"#
        }

        /// A relay run through `/bin/sh` (so that `redirections` such as `>&-` apply), its stdin fed with
        /// `lines` and left open unless `closeInput`; stdout and stderr go to files unless redirected.
        final class ShellRelay: @unchecked Sendable {
            let process = Process()
            let input = Pipe()
            let folder = Fixtures.temporaryDirectory()
            var stdoutURL: URL { folder.appendingPathComponent("stdout") }
            var stderrURL: URL { folder.appendingPathComponent("stderr") }

            /// `prelude`: shell commands run before the relay (`ulimit -f 128;`).
            init(_ arguments: [String], redirections: String = "", prelude: String = "", stdout: Any? = nil, stderr: Any? = nil) throws {
                signal(SIGPIPE, SIG_IGN)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
                _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "\(prelude) exec \"$0\" \"$@\" \(redirections)", try RelayProcess.executable.path] + arguments
                process.standardInput = input
                process.standardOutput = try stdout ?? FileHandle(forWritingTo: stdoutURL)
                process.standardError = try stderr ?? FileHandle(forWritingTo: stderrURL)
                try process.run()
            }

            /// Writes `lines` to stdin, stopping quietly when the relay is gone (a broken pipe fails the test's
            /// expectations, not the test process).
            func feed(_ lines: [String], close: Bool) {
                let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
                var offset = 0
                while offset < bytes.count {
                    let wrote = bytes[offset...].withUnsafeBytes { write(input.fileHandleForWriting.fileDescriptor, $0.baseAddress!, $0.count) }
                    if wrote < 0, errno == EINTR { continue }
                    if wrote <= 0 { break }
                    offset += wrote
                }
                if close { try? input.fileHandleForWriting.close() }
            }

            /// The exit status, or nil when the relay was still running after `limit` (it is then killed).
            func exitStatus(within limit: Duration) async -> Int32? {
                let end = ContinuousClock.now + limit
                while process.isRunning, ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(50)) }
                guard !process.isRunning else {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    return nil
                }
                return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
            }

            var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
            var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

            deinit {
                try? input.fileHandleForWriting.close()
                try? FileManager.default.removeItem(at: folder)
            }
        }

        @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
        func acknowledgementsToAFullDiskStopTheRelayLoudly() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let relay = try ShellRelay(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                                        "--api-key", "k", "--deadline", "20", "--acks", "/dev/full"])
            relay.feed((1...5).map(Self.click), close: false)
            // stdin stays open: the relay stops reading by itself, since no line it takes can be acknowledged.
            let status = await relay.exitStatus(within: .seconds(60))
            #expect(status == 1, "\(relay.stderr)")
            #expect(relay.stderr.contains("relay: cannot write acknowledgements to --acks /dev/full: no space left on device; those from line 1 on may be missing"),
                    "\(relay.stderr)")
            #expect(relay.stderr.contains("no more input was read"))
            #expect(relay.stderr.contains("pending 0"), "what was journaled is delivered: \(relay.stderr)")
            let received = try await server.received()
            #expect(!received.isEmpty && received.count <= 5 && Set(received.map(\.product)).count == received.count, "\(received)")
        }

        @Test func aReaderOfAcknowledgementsThatGoesAwayStopsTheRelayLoudly() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let acknowledgements = Pipe()
            try acknowledgements.fileHandleForReading.close() // the reader has gone
            let relay = try ShellRelay(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                                        "--api-key", "k", "--deadline", "20"], stdout: acknowledgements.fileHandleForWriting)
            try acknowledgements.fileHandleForWriting.close()
            relay.feed((1...5).map(Self.click), close: false)
            let status = await relay.exitStatus(within: .seconds(60))
            #expect(status == 1, "\(relay.stderr)")
            #expect(relay.stderr.contains("relay: cannot write acknowledgements to stdout: broken pipe; those from line 1 on may be missing"),
                    "\(relay.stderr)")
            #expect(relay.stderr.contains("pending 0"), "what was journaled is delivered: \(relay.stderr)")
            #expect(!(try await server.received()).isEmpty)
        }

        @Test func aSlowReaderOfANonBlockingPipeGetsEveryAcknowledgement() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            // A pipe whose opener made it non-blocking (as some runtimes do for a child's pipes): once full, a
            // write answers EAGAIN, which is no failure; the relay waits for the reader as it would on a
            // blocking pipe.
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            #expect(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) == 0)
            let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
            let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            let relay = try ShellRelay(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                                        "--api-key", "k", "--deadline", "20"], stdout: writer)
            try writer.close()
            // Far more acknowledgements than a pipe holds (64 KiB), read only after a while.
            relay.feed((1...5000).map(Self.click), close: true)
            try await Task.sleep(for: .seconds(2))
            let acknowledgements = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
            #expect(await relay.exitStatus(within: .seconds(120)) == 0, "\(relay.stderr)")
            #expect(acknowledgements.split(separator: "\n").filter { $0.contains("\"ids\"") }.count == 5000, "\(relay.stderr)")
        }

        @Test func aStandardErrorNobodyReadsIsNoCrash() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let errors = Pipe()
            try errors.fileHandleForReading.close() // nobody will read standard error
            let relay = try ShellRelay(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                                        "--api-key", "k", "--deadline", "20"], stderr: errors.fileHandleForWriting)
            try errors.fileHandleForWriting.close()
            relay.feed((1...5).map(Self.click), close: true)
            #expect(await relay.exitStatus(within: .seconds(60)) == 0)
            let acknowledged = relay.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"line\":") && $0.contains("\"ids\"") }
            #expect(acknowledged.count == 5, "\(relay.stdout)")
            #expect(Set(try await server.received().map(\.product)) == Set((1...5).map { "P-\($0)" }))
        }

        @Test func aClosedStandardOutputIsRefusedBeforeTheJournalIsOpened() async throws {
            let directory = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let relay = try ShellRelay(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", "http://127.0.0.1:9",
                                        "--api-key", "k"], redirections: ">&-")
            relay.feed((1...3).map(Self.click), close: false)
            #expect(await relay.exitStatus(within: .seconds(30)) == 1)
            #expect(relay.stderr.contains("error: standard output is closed: acknowledgements would have nowhere to go; open it, or give --acks FILE"),
                    "\(relay.stderr)")
            let made = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            #expect(made.isEmpty, "no journal was opened, no line taken: \(made)")
        }

        @Test func aClosedStandardErrorLeavesTheAcknowledgementsAndTheJournalClean() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            let acks = Fixtures.temporaryFile(extension: "jsonl")
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
                try? FileManager.default.removeItem(at: acks)
            }
            // Standard error closed: its number is not handed to a file the relay opens (the acknowledgements'
            // file, the journal's directory, lock and segment, or one the runtime opens), so the progress and
            // summary meant for it go nowhere, not into one of those, and writing them is no crash.
            let relay = try ShellRelay(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                                        "--api-key", "k", "--deadline", "20", "--acks", acks.path], redirections: "2>&-")
            relay.feed((1...5).map(Self.click), close: true)
            #expect(await relay.exitStatus(within: .seconds(60)) == 0)
            let lines = try String(contentsOf: acks, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 5 && lines.allSatisfy { $0.hasPrefix("{\"line\":") && $0.contains("\"ids\"") }, "only acknowledgements: \(lines)")
            let journal = try RelayProcess(["journal", directory.path])
            #expect(journal.wait() == 0, "no damage: \(journal.stdout) \(journal.stderr)")
            #expect(journal.stdout.hasPrefix("pending 0\ndead-lettered 0\n"), "\(journal.stdout)")
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
                #expect(!String(decoding: bytes, as: UTF8.self).contains("accepted"), "\(name) holds what was meant for standard error")
            }
            #expect(Set(try await server.received().map(\.product)) == Set((1...5).map { "P-\($0)" }))
        }
    }
}
