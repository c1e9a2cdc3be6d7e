#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PostgresNIO
import RecoKitPostgres
import RecoKitTesting
import Testing

/// `recokit-postgres relay` producers and `--deliver-only` deliverers as real processes, killed with
/// SIGKILL at seeded moments, while the server is crashed and restarted and their connections are cut,
/// against a stand-in vendor that fails often: every acknowledged event is delivered at least once.
extension PostgresServerTests {
@Suite struct PostgresKillTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/postgres-server.sh").path

    /// Runs `postgres-server.sh` with `arguments`; throws when it fails.
    /// Spawned and reaped with `waitpid`, not Foundation's `Process`, whose `waitUntilExit()` once missed
    /// the script's end here and waited for ever with the relays still running.
    static func server(_ arguments: [String]) throws {
        let words = ["/bin/bash", script] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", nil, nil, &argv, environ) == 0 else {
            throw TestFailure("postgres-server.sh \(arguments.joined(separator: " ")): could not start bash")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        guard status == 0 else { throw TestFailure("postgres-server.sh \(arguments.joined(separator: " ")) failed (wait status \(status))") }
    }

    @Test func killedRelaysAndACrashedServerLoseNothingAcknowledged() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["RECOKIT_PG_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        let rounds = environment["RECOKIT_PG_ROUNDS"].flatMap(Int.init) ?? 5
        print("PostgresKillTests: seed \(seed) (RECOKIT_PG_SEED=\(seed) replays it; RECOKIT_PG_ROUNDS=\(rounds) sets the rounds)")
        let serverDirectory = try #require(environment["RECOKIT_POSTGRES_DIR"], "RECOKIT_POSTGRES_DIR is not set: \(PostgresServer.howToStart)")
        try await PostgresServer.withSchema { client, schema in
            var random = SeededRandom(seed: seed)
            let vendor = try FaultyVendor(seed: seed, successPercent: 70)
            // Every child is killed and reaped on every way out, a failed step or a thrown error too.
            var children: [RelayProcess] = []
            defer {
                RelayProcess.kill(children)
                vendor.stop()
            }
            let url = try #require(PostgresServer.url)
            let common = ["--postgres", url, "--schema", schema, "--vendor", "segmentify", "--endpoint", vendor.baseURL.absoluteString,
                          "--api-key", "k", "--lease", "2", "--request-timeout", "1", "--deadline", "2"]
            var acknowledged: Set<String> = []
            var product = 0
            for round in 1...rounds {
                let lines = (0..<Int.random(in: 100...400, using: &random)).map { _ in
                    product += 1
                    return #"{"type":"click","instanceId":"rec_1","productId":"P-\#(product)","userId":"u1","sessionId":"s1"}"#
                }
                let producers = try (0..<2).map { _ in try RelayProcess(["relay"] + common) }
                children += producers
                let deliverer = try RelayProcess(["relay", "--deliver-only"] + common)
                children.append(deliverer)
                for (index, producer) in producers.enumerated() {
                    producer.feed(Array(lines[(index * lines.count / 2)..<((index + 1) * lines.count / 2)]), keepOpen: true)
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 100...900, using: &random)))
                switch round % 3 {
                case 1: try Self.server(["crash", serverDirectory])
                case 2: try await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()")
                default: break
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 100...900, using: &random)))
                RelayProcess.kill(producers + [deliverer])
                for producer in producers { acknowledged.formUnion(producer.acknowledged.values.joined()) }
            }
            // One deliverer outlives the leases of the killed ones and delivers the rest.
            let last = try RelayProcess(["relay", "--deliver-only"] + common)
            children.append(last)
            // Up and listening for signals before it is asked to stop (a SIGTERM in its first moments, before
            // its handlers, ended it by the signal: seed 6), whether or not anything is left to deliver.
            try await Task.sleep(for: .seconds(2))
            // A batch whose deliveries were all cut short by kills (TrackerConfiguration.interruptedDeliveryLimit
            // of them) is dead-lettered, kept rather than sent again for ever: requeued here once nothing is
            // pending, as an operator would; any other dead letter fails the test.
            let store = try PostgresTrackingStore(client: client, queue: "segmentify", schema: schema, logger: PostgresServer.logger)
            var status = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "segmentify")
            var requeued = 0
            var otherLetters: [String] = []
            // Three minutes at most: after many failed requests the relay's backoff can hold a requeued batch
            // for a while (10 rounds, seed 14602111874279229667: 532 requeued events still pending after 60 s).
            let waitUntil = ContinuousClock.now + .seconds(180)
            while ContinuousClock.now < waitUntil {
                if status.pendingEvents == 0 {
                    var interrupted = 0
                    otherLetters = []
                    for try await (reason, count) in try await client.query(PostgresQuery(unsafeSQL: """
                        SELECT reason, count(*)::int8 FROM \(schema).dead_letters GROUP BY reason
                        """), logger: PostgresServer.logger).decode((String, Int64).self) {
                        if reason.contains("deliveries of its batch were cut short by the process stopping") { interrupted += Int(count) }
                        else { otherLetters.append("\(count) × \(reason)") }
                    }
                    guard interrupted > 0, otherLetters.isEmpty else { break }
                    requeued += try await store.requeueDeadLetters()
                }
                try await Task.sleep(for: .milliseconds(100))
                status = (try? await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "segmentify")) ?? status
            }
            #expect(otherLetters.isEmpty, "seed \(seed): dead letters: \(otherLetters)")
            let exit = await last.stop(grace: .seconds(10))
            let lastErrors = last.stderr
            let lost = vendor.unconfirmed(Array(acknowledged))
            print("PostgresKillTests: seed \(seed): \(rounds) rounds, \(acknowledged.count) acknowledged, \(requeued) dead-lettered after "
                  + "interrupted deliveries and requeued, \(status.deadLetters ?? 0) dead letters and \(status.pendingEvents) pending at "
                  + "the end, \(vendor.duplicates) delivered more than once; vendor: \(vendor.answersInWords)")
            #expect(!acknowledged.isEmpty, "seed \(seed): no line was acknowledged")
            #expect(status.pendingEvents == 0 && status.deadLetters == 0,
                    "seed \(seed): \(status.pendingEvents) events still pending, \(status.deadLetters ?? -1) dead letters")
            #expect(lost.isEmpty, "seed \(seed): \(lost.count) acknowledged events never delivered, e.g. \(lost.prefix(5))")
            // Stopped by a signal with everything delivered, the last deliverer has nothing to report.
            #expect(exit == 0 && !lastErrors.contains("disk error"), "seed \(seed): the last deliverer exited \(exit): \(lastErrors)")
        }
    }
}
}
