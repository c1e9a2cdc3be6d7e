import Foundation
import Testing
import RecoKitTesting

extension IntegrationSuite {
    /// `recokit relay` stopped the ordinary way: SIGTERM from a service manager or a deploy, SIGINT from
    /// Ctrl-C. Killed at once, as the signals' default is, a relay dropped the lines it had read and not yet
    /// committed, and every line a producer had written into the pipe: `app | recokit relay` lost them on
    /// every stop. Now the first signal ends the input at what has arrived, which is journaled,
    /// acknowledged and delivered; a second stops at once, losing nothing acknowledged.
    @Suite("A relay stopped by SIGTERM or SIGINT", .serialized)
    struct RelaySignalTests {
        static let signals: [Int32] = [SIGTERM, SIGINT]

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
                    let name = number == SIGTERM ? "SIGTERM" : "SIGINT"
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
    }
}
