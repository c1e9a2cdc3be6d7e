import Foundation
import Testing
import RecoKitTesting

extension RelayProcessSuite {
    /// `recokit relay` stopped the ordinary way: SIGTERM from a service manager or a deploy, SIGINT from
    /// Ctrl-C, SIGHUP from the terminal or SSH session it ran in going away. Killed at once, as the signals' default is, a relay dropped the lines it had read and not yet
    /// committed, and every line a producer had written into the pipe: `app | recokit relay` lost them on
    /// every stop. Now the first signal ends the input at what has arrived, which is journaled,
    /// acknowledged and delivered; a second stops at once, losing nothing acknowledged.
    @Suite("A relay stopped by SIGTERM, SIGINT or SIGHUP", .serialized)
    struct RelaySignalTests {
        static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

        /// Seeded rounds: a relay with a burst of lines in its pipe (some read, some still in the pipe, some
        /// committed, as the moment of the signal falls) is signalled at a random moment: it exits 0, every
        /// line written before the signal is acknowledged, and the vendor has them all.
        @Test(arguments: signals)
        func everyLineWrittenBeforeTheSignalIsAcknowledgedAndDelivered(_ number: Int32) async throws {
            let seed = ProcessInfo.processInfo.environment["RECOKIT_SIGNAL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
            print("RelaySignalTests seed \(seed) (replay: RECOKIT_SIGNAL_SEED=\(seed) swift test --filter RelaySignalTests)")
            var random = SeededRandom(seed: seed)
            for round in 1...4 {
                try await IntegrationSuite.withVendorAndAJournal { server, directory in
                    let durability = Bool.random(using: &random) ? "strict" : "batched"
                    let relay = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--deadline", "10", "--durability", durability])
                    // A first burst the relay has surely taken, then a second that may still be in the pipe.
                    let first = Int.random(in: 1...200, using: &random), second = Int.random(in: 1...200, using: &random)
                    #expect(relay.writeNow((1...first).map { RelayDamageTests.line($0) + "\n" }.joined()))
                    #expect(await relay.waitUntil { $0.answeredCount == first })
                    #expect(relay.writeNow((first + 1...first + second).map { RelayDamageTests.line($0) + "\n" }.joined()))
                    try await Task.sleep(for: .milliseconds(Int64.random(in: 0...20, using: &random)))
                    relay.send(number)
                    let status = relay.wait()
                    let what = "seed \(seed) round \(round): \(durability), \(first) + \(second) lines"
                    #expect(relay.process.terminationReason == .exit && status == 0, "\(what): \(relay.stderr.suffix(600))")
                    #expect(relay.acknowledged.count == first + second, "\(what): \(relay.acknowledged.count) acknowledged: \(relay.stderr.suffix(600))")
                    let name = Self.name(number)
                    #expect(relay.stderr.contains("relay: \(name): reading no more input"), "\(relay.stderr)")
                    let received = Set(try await server.received().map(\.id))
                    let missing = relay.acknowledged.filter { !$0.value.allSatisfy(received.contains) }.keys.sorted()
                    #expect(missing.isEmpty, "\(what): lines \(missing.prefix(5)) acknowledged and not delivered")
                }
            }
        }

        /// A line without its end when the signal comes is not taken (nothing of it is journaled): the
        /// relay says so and exits 1, so a producer knows to send it again.
        @Test func aLineWithoutItsEndIsNotTaken() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let relay = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--deadline", "10"])
                let cut = String(RelayDamageTests.line(3).prefix(40))
                relay.writeNow(RelayDamageTests.line(1) + "\n" + RelayDamageTests.line(2) + "\n" + cut)
                #expect(await relay.waitUntil { $0.answeredCount == 2 })
                relay.send(SIGTERM)
                #expect(relay.wait() == 1)
                #expect(relay.acknowledged.keys.sorted() == [1, 2])
                #expect(relay.stderr.contains("relay: SIGTERM: a line of 40 bytes had not ended when the input stopped; it was not taken (send it again)"),
                        "\(relay.stderr)")
                #expect(relay.stderr.contains("malformed 0"), "nothing of the cut line was journaled or refused: \(relay.stderr)")
            }
        }

        /// A second signal while the relay delivers to a vendor that is down stops it at once, as the
        /// signal would; every line acknowledged is in the journal, and a drain delivers it.
        @Test(arguments: signals)
        func aSecondSignalStopsAtOnceAndTheJournalKeepsWhatWasAcknowledged(_ number: Int32) async throws {
            try await IntegrationSuite.withVendorDownAndAJournal { server, directory in
                let relay = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--deadline", "600"])
                relay.writeNow((1...50).map { RelayDamageTests.line($0) + "\n" }.joined())
                #expect(await relay.waitUntil { $0.answeredCount == 50 })
                relay.send(number)
                #expect(await relay.waitUntil { $0.stderr.contains("reading no more input") && $0.stderr.contains("accepted 50") })
                relay.send(number)
                let stopped = await relay.waitUntil(limit: .seconds(10)) { !$0.process.isRunning }
                #expect(stopped, "stopped at once, not at the 600 s deadline")
                if !stopped { relay.kill() } else { _ = relay.wait() }
                #expect(relay.process.terminationReason == .uncaughtSignal && relay.process.terminationStatus == number, "\(relay.stderr)")
                #expect(relay.stderr.contains("stopping now; what was acknowledged is in the journal"), "\(relay.stderr)")
                let acknowledged = relay.acknowledged
                #expect(acknowledged.count == 50, "\(relay.stderr)")
                try await server.configure(down: false)
                let drain = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--drain", "--deadline", "30"])
                #expect(drain.wait() == 0, "\(drain.stderr)")
                let received = Set(try await server.received().map(\.id))
                #expect(acknowledged.values.allSatisfy { $0.allSatisfy(received.contains) })
            }
        }

        /// A signal while the journal opens is kept for the input: opening a large journal takes seconds
        /// (1.7 s for a million pending events), here a disk that does not answer holds it open as long as
        /// the test likes. Once it is open, the lines that had arrived are journaled, acknowledged and
        /// delivered, and the run exits 0. Before, the signal's default killed the relay there, and the
        /// lines in its pipe went without a word.
        @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "LD_PRELOAD shim (Linux)"), arguments: signals)
        func aSignalWhileTheJournalOpensIsKeptForTheLinesThatArrived(_ number: Int32) async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let (environment, stalled, release) = try Self.stallOpening(directory)
                defer { release() }
                let relay = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--deadline", "10"], environment: environment)
                #expect(relay.writeNow((1...30).map { RelayDamageTests.line($0) + "\n" }.joined()))
                #expect(await relay.waitUntil { _ in stalled() }, "the relay never reached its journal: \(relay.stderr)")
                relay.send(number)
                let name = Self.name(number)
                #expect(await relay.waitUntil { $0.stderr.contains("relay: \(name) while the journal opens") }, "\(relay.stderr)")
                release()
                let status = relay.wait()
                #expect(relay.process.terminationReason == .exit && status == 0, "\(relay.stderr)")
                #expect(relay.acknowledged.count == 30, "\(relay.acknowledged.count) acknowledged: \(relay.stderr)")
                let received = Set(try await server.received().map(\.id))
                let missing = relay.acknowledged.filter { !$0.value.allSatisfy(received.contains) }.keys.sorted()
                #expect(missing.isEmpty, "lines \(missing.prefix(5)) acknowledged and not delivered")
            }
        }

        /// While the journal opens, a second signal stops the relay at once (nothing was acknowledged, so
        /// nothing is lost that anyone was told was kept), and a signal stops a drain as soon as the journal
        /// is open, saying so.
        @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "LD_PRELOAD shim (Linux)"))
        func whileTheJournalOpensASecondSignalOrADrainsSignalStops() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let (environment, stalled, release) = try Self.stallOpening(directory)
                defer { release() }
                let relay = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--deadline", "600"], environment: environment)
                #expect(await relay.waitUntil { _ in stalled() }, "\(relay.stderr)")
                relay.send(SIGTERM)
                #expect(await relay.waitUntil { $0.stderr.contains("relay: SIGTERM while the journal opens") }, "\(relay.stderr)")
                relay.send(SIGTERM)
                let stopped = await relay.waitUntil(limit: .seconds(10)) { !$0.process.isRunning }
                #expect(stopped, "a second signal while the journal opens stops the relay at once")
                if !stopped { relay.kill() } else { _ = relay.wait() }
                #expect(relay.process.terminationReason == .uncaughtSignal && relay.process.terminationStatus == SIGTERM, "\(relay.stderr)")
                #expect(relay.stderr.contains("relay: SIGTERM: stopping now"), "\(relay.stderr)")
            }
            try await IntegrationSuite.withVendorDownAndAJournal { server, directory in
                let (environment, stalled, release) = try Self.stallOpening(directory)
                defer { release() }
                let drain = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--drain", "--deadline", "600"],
                                             environment: environment)
                #expect(await drain.waitUntil { _ in stalled() }, "\(drain.stderr)")
                drain.send(SIGTERM)
                #expect(await drain.waitUntil { $0.stderr.contains("relay: SIGTERM while the journal opens") }, "\(drain.stderr)")
                release()
                let stopped = await drain.waitUntil(limit: .seconds(10)) { !$0.process.isRunning }
                #expect(stopped, "a drain signalled while its journal opened stops once it is open, not at the 600 s deadline")
                if !stopped { drain.kill() } else { _ = drain.wait() }
                #expect(drain.process.terminationReason == .uncaughtSignal && drain.process.terminationStatus == SIGTERM, "\(drain.stderr)")
                #expect(drain.stderr.contains("relay: SIGTERM: stopping the drain now"), "\(drain.stderr)")
            }
        }

        /// The shim's environment that holds every opening of `directory`'s files until `release` is called;
        /// `stalled` tells whether the relay waits there.
        static func stallOpening(_ directory: URL) throws -> (environment: [String: String], stalled: @Sendable () -> Bool, release: @Sendable () -> Void) {
            let trigger = directory.deletingLastPathComponent().appendingPathComponent("stall-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: trigger.path, contents: nil)
            let marker = trigger.path + ".stalled"
            let environment = try JournalFaultShim.environment(.openStalls, directory: directory, trigger: trigger)
            return (environment, { FileManager.default.fileExists(atPath: marker) },
                    { try? FileManager.default.removeItem(at: trigger); try? FileManager.default.removeItem(atPath: marker) })
        }

        static func name(_ number: Int32) -> String { [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"][number] ?? "?" }

        /// A line of about 4 KB (a long page address), so that a few thousand fill a small journal.
        static func longLine(_ number: Int) -> String {
            RelayDamageTests.line(number).replacingOccurrences(of: #""pageUrl":"https://www.shop.example/""#,
                                                               with: #""pageUrl":"https://www.shop.example/"# + String(repeating: "p", count: 4000) + "\"")
        }

        /// A signal while the journal is full and the vendor down: the relay waits for room at most
        /// `--deadline` after the signal, then refuses every line that had arrived and was not journaled,
        /// says which, and exits 1. Every line it read has an answer, in order, and a drain delivers every
        /// line it accepted. Before, it waited for room until it was killed (a service manager's SIGKILL),
        /// and the lines it held went without a word.
        @Test(arguments: signals)
        func aFullJournalIsWaitedForAtMostTheDeadlineAfterTheSignal(_ number: Int32) async throws {
            try await IntegrationSuite.withVendorDownAndAJournal { server, directory in
                let relay = try RelayProcess(RelayDamageTests.relayArguments(directory, server)
                                             + ["--deadline", "2", "--max-journal-bytes", "\(16 << 20)", "--segment-bytes", "\(1 << 20)"])
                // About 20 MB of lines, more than the journal holds; the pipe stays open, as a producer's would.
                relay.feed((1...5000).map(Self.longLine), keepOpen: true)
                #expect(await relay.waitUntil(limit: .seconds(120)) { $0.stderr.contains("relay: the journal is full; waiting") }, "\(relay.stderr)")
                relay.send(number)
                let stopped = await relay.waitUntil(limit: .seconds(60)) { !$0.process.isRunning }
                #expect(stopped, "still waiting for room a minute after a signal with --deadline 2: \(relay.stderr.suffix(800))")
                if !stopped { relay.kill() }
                let status = stopped ? relay.wait() : -1
                #expect(relay.process.terminationReason == .exit && status == 1, "\(relay.stderr.suffix(800))")
                let accepted = relay.acknowledged, refused = relay.refused
                let answered = Set(accepted.keys).union(refused.keys)
                #expect(answered == Set(1...max(1, answered.max() ?? 1)), "every line read is answered, in order")
                #expect(accepted.count > 3000, "the journal took what it could hold: \(accepted.count) lines")
                #expect(!refused.isEmpty, "the line that waited for room, at least, was refused")
                let name = Self.name(number)
                let reason = "not taken: the journal stayed full for the deadline after \(name); send it again"
                #expect(refused.values.allSatisfy { $0.hasPrefix(reason) }, "\(refused.values.first ?? "")")
                #expect(relay.stderr.contains("relay: \(name): the journal stayed full for the deadline after the signal; \(refused.count) lines "
                                              + "that had arrived (lines \(refused.keys.min() ?? 0)-\(refused.keys.max() ?? 0)) were not taken"),
                        "\(relay.stderr.suffix(800))")
                try await server.configure(down: false)
                let drain = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--drain", "--deadline", "60"])
                #expect(drain.wait() == 0, "\(drain.stderr)")
                let received = Set(try await server.received().map(\.id))
                let lost = accepted.filter { !$0.value.allSatisfy(received.contains) }.keys.sorted()
                #expect(lost.isEmpty, "lines \(lost.prefix(5)) accepted and not delivered")
            }
        }

        /// A signal stops `--drain` at once, as the signal would, and says what stays in the journal (the
        /// signals' default stopped it without a word); a later drain delivers everything.
        @Test func aSignalStopsADrainAndSaysWhatStays() async throws {
            try await IntegrationSuite.withVendorDownAndAJournal { server, directory in
                let relay = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--deadline", "0"])
                relay.feed((1...20).map(RelayDamageTests.line))
                #expect(relay.wait() == 0, "\(relay.stderr)")
                let accepted = relay.acknowledged
                #expect(accepted.count == 20)
                let drain = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--drain", "--deadline", "600"])
                try await Task.sleep(for: .milliseconds(500))
                drain.send(SIGTERM)
                let stopped = await drain.waitUntil(limit: .seconds(10)) { !$0.process.isRunning }
                #expect(stopped, "stopped at once, not at the 600 s deadline")
                if !stopped { drain.kill() } else { _ = drain.wait() }
                #expect(drain.process.terminationReason == .uncaughtSignal && drain.process.terminationStatus == SIGTERM, "\(drain.stderr)")
                #expect(drain.stderr.contains("relay: SIGTERM: stopping the drain now; what was not delivered stays in the journal"), "\(drain.stderr)")
                try await server.configure(down: false)
                let again = try RelayProcess(RelayDamageTests.relayArguments(directory, server) + ["--drain", "--deadline", "30"])
                #expect(again.wait() == 0, "\(again.stderr)")
                let received = Set(try await server.received().map(\.id))
                #expect(accepted.values.allSatisfy { $0.allSatisfy(received.contains) })
            }
        }
    }
}
