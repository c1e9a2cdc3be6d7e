import Foundation
import RecoKitTesting
import Testing
import RecoKit

extension IntegrationSuite {
    /// Real processes: `recokit relay` SIGKILLed at 24 moments of four kinds (appending; right after a
    /// drain emptied the journal; during a vendor outage; during delivery), each kind confirmed from what
    /// the child acknowledged and what the server saw at the kill. Every line a relay acknowledged must
    /// reach the server. Seeded: the seed is printed, `RECOKIT_CRASH_SEED=N` replays its choices.
    @Suite("Crash recovery: SIGKILL the relay at 24 moments", .serialized)
    struct RelayCrashTests {
        enum Moment: String, CaseIterable {
            case appending, afterDrain = "right after a drain emptied the journal", outage = "during an outage", delivery = "during delivery"
        }

        static func line(round: Int, number: Int) -> String {
            #"{"type":"click","instanceId":"rec_pdp_1","productId":"R\#(round)-\#(number)","position":\#(number % 12 + 1),"#
                + #""userId":"-897541074991628287","sessionId":"-2739101928374651","lang":"TR","pageUrl":"https://www.shop.example/"}"#
        }

        static func lines(round: Int, count: Int) -> [String] { (1...count).map { line(round: round, number: $0) } }

        static func seed() -> UInt64 {
            if let text = ProcessInfo.processInfo.environment["RECOKIT_CRASH_SEED"], let seed = UInt64(text) { return seed }
            return UInt64.random(in: 1...UInt64.max)
        }

        @Test func everyAcknowledgedLineSurvivesSIGKILLAtTwentyFourMoments() async throws {
            let seed = Self.seed()
            print("RelayCrashTests seed \(seed) (replay: RECOKIT_CRASH_SEED=\(seed) swift test --filter everyAcknowledgedLineSurvives)")
            var random = SeededRandom(seed: seed)
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let common = ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                          "--api-key", "test-key", "--origin", "www.shop.example"]
            let schedule = (0..<24).map { Moment.allCases[$0 % 4] }.shuffled(using: &random)
            var acknowledged: [String: (product: String, round: Int)] = [:]
            var confirmed: [Moment: Int] = [:]
            var notes: [String] = []

            for (round, moment) in schedule.enumerated() {
                let durability = random.next() % 2 == 0 ? "strict" : "batched"
                let relay: RelayProcess
                var isMoment = false
                var why = ""  // what was seen, for a round that was not confirmed
                switch moment {
                case .appending:
                    // Lines stream in; the kill comes after a random number of acknowledgements, before the last.
                    try await server.configure(down: false, delay: 0)
                    let total = 20_000
                    let target = Int.random(in: 100...3000, using: &random)
                    relay = try RelayProcess(common + ["--durability", durability])
                    relay.feed(Self.lines(round: round, count: total))
                    _ = await relay.waitUntil { $0.acknowledged.count >= target }
                    relay.kill()
                    isMoment = relay.acknowledged.count >= target && relay.acknowledged.count < total
                    why = "\(relay.acknowledged.count) acknowledged, wanted \(target)..<\(total)"
                case .afterDrain:
                    // A drain empties the journal; then, the vendor down, a relay takes a few lines and is killed.
                    try await server.configure(down: false, delay: 0)
                    let drain = try RelayProcess(common + ["--drain", "--deadline", "30"])
                    let emptied = drain.wait() == 0 && drain.stderr.contains("pending 0")
                    try await server.configure(down: true)
                    let downBefore = try await server.log().filter { $0 == "down" }.count
                    let count = Int.random(in: 5...60, using: &random)
                    relay = try RelayProcess(common + ["--durability", durability])
                    relay.feed(Self.lines(round: round, count: count), keepOpen: true)
                    let taken = await relay.waitUntil { $0.acknowledged.count == count }
                    let tried = await waitForDownRequests(server, after: downBefore)
                    relay.kill()
                    isMoment = emptied && taken && tried
                    why = "emptied \(emptied), all \(count) taken \(taken) (\(relay.acknowledged.count)), refused request seen \(tried)"
                    if !emptied { notes.append("round \(round): the drain before did not empty the journal: \(drain.stderr)") }
                case .outage:
                    // Nothing of this round may reach the server before the kill. (Events of the round before
                    // can: a killed relay's requests that a slow reply held in the server are stored after.)
                    try await server.configure(down: true)
                    let downBefore = try await server.log().filter { $0 == "down" }.count
                    let count = Int.random(in: 50...3000, using: &random)
                    relay = try RelayProcess(common + ["--durability", durability])
                    relay.feed(Self.lines(round: round, count: count), keepOpen: true)
                    let taken = await relay.waitUntil { $0.acknowledged.count == count }
                    let tried = await waitForDownRequests(server, after: downBefore)
                    relay.kill()
                    let prefix = "R\(round)-"
                    let stored = try await server.received().filter { $0.product.hasPrefix(prefix) }.count
                    isMoment = taken && tried && stored == 0
                    why = "all \(count) taken \(taken) (\(relay.acknowledged.count)), refused request seen \(tried), \(stored) of this round stored"
                case .delivery:
                    // Slow replies keep requests in flight; the kill comes once the server stored some of this round's events.
                    // Slow enough, and enough lines, that delivery is still under way when the kill comes on a busy
                    // machine (with 0.15 s and 1,040 lines, seed 16837389 saw all stored before the kill, twice).
                    try await server.configure(down: false, delay: 0.3)
                    let count = Int.random(in: 2000...5000, using: &random)
                    relay = try RelayProcess(common + ["--durability", durability])
                    relay.feed(Self.lines(round: round, count: count), keepOpen: true)
                    let prefix = "R\(round)-"
                    let started = await waitUntil { (try? await server.received().contains { $0.product.hasPrefix(prefix) }) ?? false }
                    relay.kill()
                    let stored = Set(try await server.received().filter { $0.product.hasPrefix(prefix) }.map(\.id))
                    let roundIds = Set(relay.acknowledged.values.flatMap { $0 })
                    isMoment = started && !stored.isEmpty && !roundIds.isSubset(of: stored)
                    why = "delivery started \(started), \(stored.count) of this round's stored, \(roundIds.count) acknowledged"
                }
                for (number, ids) in relay.acknowledged {
                    for id in ids { acknowledged[id] = ("R\(round)-\(number)", round) }
                }
                if isMoment { confirmed[moment, default: 0] += 1 } else { notes.append("round \(round): not confirmed as \(moment.rawValue): \(why)") }
                print("RelayCrashTests round \(round): \(moment.rawValue), \(durability), \(relay.acknowledged.count) lines acknowledged, confirmed \(isMoment)")
            }

            try await server.configure(down: false, delay: 0)
            let last = try RelayProcess(common + ["--drain", "--deadline", "60"])
            #expect(last.wait() == 0)
            #expect(last.stderr.contains("pending 0"), "final drain: \(last.stderr)")
            // A batch cut short by kills TrackerConfiguration.interruptedDeliveryLimit times is dead-lettered,
            // kept rather than sent again for ever (the guard against a reply that kills the relay each time):
            // requeued here as an operator would, and drained. Any other dead letter fails the test.
            let journal = try RelayProcess(["journal", directory.path])
            _ = journal.wait()
            let letters = journal.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
            let interrupted = letters.filter { $0.contains("cut short by the process stopping") }
            #expect(letters.count == interrupted.count, "dead letters: \(letters.filter { !$0.contains("cut short") }.prefix(5))")
            if !interrupted.isEmpty {
                print("RelayCrashTests: \(interrupted.count) events dead-lettered after interrupted deliveries, requeued")
                let requeue = try RelayProcess(["journal", directory.path, "--requeue"])
                #expect(requeue.wait() == 0, "\(requeue.stderr)")
                let again = try RelayProcess(common + ["--drain", "--deadline", "60"])
                #expect(again.wait() == 0, "\(again.stderr)")
            }
            for moment in Moment.allCases {
                #expect(confirmed[moment, default: 0] >= 5, "kills \(moment.rawValue): \(confirmed[moment, default: 0]) of 6 confirmed; \(notes)")
            }
            #expect(confirmed.values.reduce(0, +) >= 20, "confirmed kills: \(confirmed); \(notes)")

            let received = try await server.received()
            let byId = Dictionary(grouping: received, by: \.id)
            var missingByRound: [Int: [String]] = [:]
            for (id, line) in acknowledged where byId[id] == nil { missingByRound[line.round, default: []].append(line.product) }
            for (round, missing) in missingByRound.sorted(by: { $0.key < $1.key }) {
                Issue.record("seed \(seed), round \(round) (\(schedule[round].rawValue)): \(missing.count) acknowledged lines never arrived, e.g. \(missing.sorted().prefix(5))")
            }
            // Duplicates (re-sent after a kill) carry the same id and the same event.
            for (id, copies) in byId where Set(copies.map(\.product)).count != 1 {
                Issue.record("id \(id) arrived for several products: \(Set(copies.map(\.product)))")
            }
            for (id, line) in acknowledged { if let copy = byId[id]?.first, copy.product != line.product { Issue.record("\(id): \(copy.product) ≠ \(line.product)") } }
        }

        /// Waits (at most 15 s) until the server has refused a connection since `count` refusals.
        func waitForDownRequests(_ server: ScriptedServer, after count: Int) async -> Bool {
            await waitUntil { ((try? await server.log().filter { $0 == "down" }.count) ?? 0) > count }
        }

        func waitUntil(limit: Duration = .seconds(15), _ condition: () async -> Bool) async -> Bool {
            let end = ContinuousClock.now + limit
            while ContinuousClock.now < end {
                if await condition() { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return await condition()
        }
    }
}
