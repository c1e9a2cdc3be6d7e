import Foundation
import RecoKitTesting
import Testing
@testable import RecoTracking
import RecoKit

extension RelayProcessSuite {
    /// `recokit journal DIR --requeue` SIGKILLed at a random moment of re-queueing 20,000 dead letters
    /// (before it journals them, while it does, after it committed them and before it forgot them, or
    /// after): the next `--requeue` finishes the work, and every letter's event is pending, none lost
    /// (duplicates are allowed: a letter journaled and not yet forgotten is journaled again). Seeded: the
    /// seed is printed, `RECOKIT_CRASH_SEED=N` replays its choices of moment.
    @Suite("recokit journal --requeue killed at any moment", .serialized)
    struct RequeueKillTests {
        static let letters = 20_000

        /// A journal directory holding only dead letters 1…`letters`.
        static func journalOfDeadLetters() throws -> URL {
            let directory = Fixtures.temporaryDirectory()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let storage = FileJournalStorage(directory: directory)
            defer { storage.close() }
            let letters = (1...Self.letters).map { number in
                let event = TrackedEvent(id: EventID(run: 11, sequence: UInt64(number)), interaction: Fixtures.click("K-\(number)"))
                return (payload: EventCodec.encode(event)[...], reason: "HTTP 422: refused")
            }
            try DeadLetterStore(storage: storage, durable: true).add(letters, at: Date())
            return directory
        }

        /// The sequence numbers of every event the journal holds to deliver (duplicates once).
        static func pendingSequences(_ directory: URL) throws -> Set<UInt64> {
            let (journal, _) = try Journal.open(storage: FileJournalStorage(directory: directory), durability: .strict,
                                                maxBytes: 1 << 40, segmentBytes: 8 << 20, mode: .readOnly)
            defer { journal.close() }
            var sequences: Set<UInt64> = []
            while let batch = try journal.take(maxCount: 5_000, maxBytes: 64 << 20, interval: .zero, force: true) {
                var records: [EventRecord] = []
                for payload in batch.payloads { try EventRecord.read(payload, into: &records) }
                sequences.formUnion(records.map(\.id.sequence))
            }
            return sequences
        }

        /// The bytes of the directory's segment files, and of its dead-letter file (-1 for one missing).
        static func sizes(_ directory: URL) -> (segments: Int, deadLetters: Int) {
            func size(_ path: String) -> Int {
                var status = stat()
                return stat(path, &status) == 0 ? Int(status.st_size) : -1
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let segments = names.filter { $0.hasPrefix("segment-") }.map { size(directory.appendingPathComponent($0).path) }.filter { $0 > 0 }
            return (segments.reduce(0, +), size(directory.appendingPathComponent(DeadLetterStore.fileName).path))
        }

        /// When to kill, chosen by the seed: after a random time within the command's run, or as soon as
        /// the directory shows a step begun (the journal written to; written whole; the letters forgotten).
        enum Aim: CaseIterable { case time, journalWriting, journalWritten, lettersForgotten }

        @Test func everyLetterSurvivesARequeueKilledAtAnyMoment() throws {
            let seed = IntegrationSuite.RelayCrashTests.seed()
            print("RequeueKillTests seed \(seed) (replay: RECOKIT_CRASH_SEED=\(seed) swift test --filter everyLetterSurvivesARequeue)")
            var random = SeededRandom(seed: seed)

            // How long a whole re-queue takes here, process start included, and how many segment bytes it
            // writes: the aims below are taken from it.
            let timed = try Self.journalOfDeadLetters()
            defer { try? FileManager.default.removeItem(at: timed) }
            let started = ContinuousClock.now
            let whole = try RelayProcess(["journal", timed.path, "--requeue"])
            try #require(whole.wait() == 0, "\(whole.stderr)")
            let duration = ContinuousClock.now - started
            try #require(whole.stdout.hasPrefix("requeued \(Self.letters) dead letters\n"), "\(whole.stdout)")
            let journalBytes = Self.sizes(timed).segments

            var moments: [String: Int] = [:]
            let aims = (0..<8).map { Aim.allCases[$0 % Aim.allCases.count] }.shuffled(using: &random)
            for (round, aim) in aims.enumerated() {
                let directory = try Self.journalOfDeadLetters()
                defer { try? FileManager.default.removeItem(at: directory) }
                let lettersBytes = Self.sizes(directory).deadLetters
                let delay = duration * Double.random(in: 0...1, using: &random)
                let requeue = try RelayProcess(["journal", directory.path, "--requeue"])
                let start = ContinuousClock.now
                let limit = start + duration * 3
                while ContinuousClock.now < limit {
                    let (segments, deadLetters) = Self.sizes(directory)
                    let reached = switch aim {
                    case .time: ContinuousClock.now - start >= delay
                    case .journalWriting: segments > 0
                    case .journalWritten: segments >= journalBytes
                    case .lettersForgotten: deadLetters < lettersBytes
                    }
                    if reached { break }
                }
                requeue.kill()
                let finished = requeue.stdout.hasPrefix("requeued")

                // Where the kill fell, from what the directory holds (read only).
                let seen = try JournalDirectory.inspect(directory)
                let moment = finished ? "after it finished"
                    : seen.pending == 0 ? "before it journaled the letters"
                    : seen.deadLetters.count == Self.letters
                    ? "after it journaled \(seen.pending == Self.letters ? "all" : "some") letters, before it forgot them"
                    : "after it forgot the letters"
                moments[moment, default: 0] += 1
                print("RequeueKillTests round \(round): aimed at \(aim), \(moment): pending \(seen.pending), dead \(seen.deadLetters.count)")

                let again = try RelayProcess(["journal", directory.path, "--requeue"])
                #expect(again.wait() == 0, "round \(round) (\(moment)): \(again.stderr)")
                let after = try JournalDirectory.inspect(directory)
                #expect(after.deadLetters.isEmpty, "round \(round) (\(moment)): \(after.deadLetters.count) letters still dead")
                let pending = try Self.pendingSequences(directory)
                let lost = (1...UInt64(Self.letters)).filter { !pending.contains($0) }
                #expect(lost.isEmpty, "round \(round) (\(moment)): \(lost.count) letters lost, first \(lost.prefix(5))")
            }
            print("RequeueKillTests moments: \(moments.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
            // The kills must have fallen while the command ran, at more than one of its steps, or the
            // rounds tested little.
            #expect(moments.keys.filter { $0 != "after it finished" }.count >= 2, "\(moments)")
        }
    }
}
