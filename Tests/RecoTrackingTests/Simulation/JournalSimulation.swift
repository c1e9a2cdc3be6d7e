import Foundation
import RecoKitTesting
@testable import RecoTracking
import RecoKit

/// One seeded schedule of journal work over a ``FaultyStorage``: appends (strict, batched or durable on
/// commit), commits,
/// takes, acknowledgements, dead letters and their re-queueing (begun and finished as separate steps, as
/// a tracker's sender may dead-letter in between), clean restarts, process crashes and power losses, with faults
/// injected at any storage call and bits flipped in written data. After every step it checks the
/// journal's invariants against a model of what was promised; at the end it drains the journal and
/// checks that every promised event was delivered or dead-lettered, or is accounted for by damage.
/// Some appends are a page's impressions (``PageImpressions``): one record of several events, which the
/// journal counts as those events.
///
/// A failure is a `Violation` naming the seed and the step; `JournalSimulation(seed:).run()` replays it.
struct JournalSimulation {
    struct Violation: Error, CustomStringConvertible {
        var seed: UInt64
        var step: Int
        var message: String
        var log: [String]
        var description: String {
            "seed \(seed), step \(step): \(message)\nreplay: RECOKIT_SIMULATION_SEED=\(seed) swift test --filter JournalSimulationTests\n"
                + "last steps:\n" + log.suffix(Int(ProcessInfo.processInfo.environment["RECOKIT_SIMULATION_LOG"] ?? "25") ?? 25).joined(separator: "\n")
        }
    }

    /// A deliberate defect, to show the checks catch one.
    enum Sabotage { case none, deleteOldestSegmentOnRestart }

    let seed: UInt64
    private let sabotage: Sabotage
    private var random: SeededRandom
    private let durability: Durability
    private let segmentBytes: Int
    private let steps: Int
    /// Every record one event of one size (no pages): a rewritten segment's record offsets then fall on
    /// the old ones, so a checkpoint left naming an old offset would name a record in the new segment.
    private let uniform: Bool
    private var storage: FaultyStorage
    private var journal: Journal
    private var deadLetters: DeadLetterStore
    private var log: [String] = []
    private var step = 0

    // The model.
    private var nextId: UInt64 = 0
    private var appended: Set<UInt64> = []
    /// Accepted in batched mode, not yet covered by a successful commit.
    private var buffered: Set<UInt64> = []
    /// Durable by the journal's word: `makeDurable`/`commit` returned.
    private var promised: Set<UInt64> = []
    private var delivered: Set<UInt64> = []
    private var deadLettered: Set<UInt64> = []
    private var inFlight: [JournalBatch] = []
    /// Re-queues begun (two at most may overlap, as two callers of `requeueDeadLetters()` can): the dead
    /// letters each read, and where its reading ended.
    private var requeueing: [(payloads: [[UInt8]], ids: [UInt64], end: DeadLetterStore.ReadMark)] = []
    /// Bits flipped in segment files: each may cost the one record it lands in.
    private var flips = 0
    /// The most events one record holds (a page's impressions): what one flipped bit may cost.
    private var eventsPerRecord = 1
    private var flipCost: Int { flips * eventsPerRecord }
    /// Records and their events counted in a segment's durable part, by what determines them (cleared at
    /// every reopen).
    private struct CountKey: Hashable { var segment: UInt64; var synced: Int; var size: Int }
    private var counted: [CountKey: (records: Int, events: Int)] = [:]
    private var damageReported = 0
    /// Whether a fault was armed or a bit flipped since the journal last opened cleanly: until then, only
    /// crashes and power losses touched its files, so recovery may find torn tails and nothing else.
    private var mayGarble = false

    init(seed: UInt64, sabotage: Sabotage = .none) throws {
        self.seed = seed
        self.sabotage = sabotage
        random = SeededRandom(seed: seed)
        durability = [.strict, .batched(every: .seconds(3600)), .onCommit][Int.random(in: 0..<3, using: &random)]
        segmentBytes = [600, 2048, 8192][Int.random(in: 0..<3, using: &random)]
        steps = Int.random(in: 40...160, using: &random)
        uniform = Int.random(in: 0..<4, using: &random) == 0
        storage = FaultyStorage(seed: seed ^ 0xA5A5)
        (journal, _) = try Journal.open(storage: storage, durability: durability, maxBytes: 1 << 30, segmentBytes: segmentBytes)
        deadLetters = DeadLetterStore(storage: storage, durable: true, window: Self.deadLetterWindow(seed: seed))
    }

    /// How much of the dead letters' file its store reads at once: most letters are longer than the first two,
    /// which make it read a letter in growing windows; the last is the default, the whole file here. From the
    /// seed alone, not its random numbers, so that each seed's schedule stays the one it was.
    private static func deadLetterWindow(seed: UInt64) -> Int { [40, 150, 1_000, 2 << 20][Int((seed >> 3) % 4)] }

    private var isStrict: Bool { durability == .strict }
    /// Durable on commit: a failed commit refuses what it carried, and a close writes nothing.
    private var isOnCommit: Bool { durability == .onCommit }

    private func payload(_ id: UInt64) -> [UInt8] {
        let digits = String(id)
        let product = uniform ? "P-" + String(repeating: "0", count: max(0, 10 - digits.count)) + digits
            : "P-\(id)" + String(repeating: "x", count: Int(id % 7) * 9)
        return EventCodec.encode(TrackedEvent(id: EventID(run: seed, sequence: id),
                                              interaction: Interaction(kind: .click, instanceId: "rec_1", interactionId: "act_1",
                                                                       productId: product, position: 1,
                                                                       context: InteractionContext(userId: "u", sessionId: "s"),
                                                                       occurred: Date(timeIntervalSince1970: 1_700_000_000))))
    }

    /// A page of `count` impressions, numbered from `first`.
    private func pagePayload(first: UInt64, count: Int) -> [UInt8] {
        var page = PageImpressions(context: InteractionContext(userId: "u", sessionId: "s"), occurred: Date(timeIntervalSince1970: 1_700_000_000))
        for index in 0..<count {
            page.impressions.append(.init(instanceId: "rec_1", interactionId: "act_1", productId: "P-\(first + UInt64(index))", position: index + 1))
        }
        return Array(PageImpressions.journalRecord(of: page, run: seed, firstSequence: first))
    }

    /// The events of a batch's records (a page's record holds several); nil when one does not read.
    private func events(_ payloads: [ArraySlice<UInt8>]) -> [EventRecord]? {
        var records: [EventRecord] = []
        for payload in payloads {
            do { try EventRecord.read(payload, into: &records) } catch { return nil }
        }
        return records
    }

    private func fail(_ message: String) -> Violation { Violation(seed: seed, step: step, message: message, log: log) }

    mutating func run() throws(Violation) {
        for index in 1...steps {
            step = index
            try perform(choose())
            if ProcessInfo.processInfo.environment["RECOKIT_SIMULATION_VERBOSE"] != nil {
                let state = journal.withState { $0 }
                log.append("    state: " + state.segments.map { "#\($0.number) size \($0.size) synced \($0.synced) rec \($0.records)/\($0.syncedRecords) read \($0.readRecords)\($0.sealed ? " sealed" : "")\($0.needsRollback ? " rollback" : "")" }.joined(separator: ", ")
                           + " | disk: " + storage.disk.files.sorted { $0.key < $1.key }.map { "\($0.key.suffix(6)) \($0.value.content.count)/\($0.value.durable.count)" }.joined(separator: ", ")
                           + " | pending \(state.pending) buffer \(state.buffer.count) cursor \(state.readCursor)")
            }
            try checkInvariants()
        }
        try finish()
    }

    enum Action: String {
        case append, commit, take, acknowledge, deadLetter, requeueBegin, requeueEnd, restart, crash, powerLoss, fault, flip
    }

    private mutating func choose() -> Action {
        let weights: [(Action, Int)] = [(.append, 30), (.commit, 12), (.take, 16), (.acknowledge, 12), (.deadLetter, 3), (.requeueBegin, 2), (.requeueEnd, 2),
                                        (.restart, 2), (.crash, 3), (.powerLoss, 2), (.fault, 8), (.flip, 2)]
        var pick = Int.random(in: 0..<weights.reduce(0) { $0 + $1.1 }, using: &random)
        for (action, weight) in weights {
            if pick < weight { return action }
            pick -= weight
        }
        return .append
    }

    private mutating func perform(_ action: Action) throws(Violation) {
        switch action {
        case .append: try appendSome()
        case .commit:
            let covered = buffered
            do {
                try journal.commit()
                promised.formUnion(covered)
                buffered.subtract(covered)
                log.append("commit: ok")
            } catch {
                log.append("commit: \(error)")
                // Durable on commit, what the failed commit carried is refused: never promised.
                if isOnCommit { buffered.subtract(covered) }
                try expectDiskError(after: "a failed commit")
            }
        case .take:
            do {
                guard let batch = try journal.take(maxCount: Int.random(in: 1...20, using: &random),
                                                   maxBytes: Int.random(in: 200...8000, using: &random), interval: .zero, force: true) else {
                    log.append("take: nothing")
                    return
                }
                guard let records = events(batch.payloads) else { throw fail("take returned a payload that does not decode") }
                for record in records {
                    guard record.id.run == seed, appended.contains(record.id.sequence) else {
                        throw fail("take returned an event that was never appended: \(record.id)")
                    }
                }
                inFlight.append(batch)
                log.append("take: \(batch.payloads.count) from \(batch.start)")
            } catch let violation as Violation {
                throw violation
            } catch {
                log.append("take: \(error)")
            }
        case .acknowledge:
            guard !inFlight.isEmpty else { return }
            let batch = inFlight.remove(at: Int.random(in: 0..<inFlight.count, using: &random))
            delivered.formUnion(ids(batch))
            let failure = journal.acknowledge(batch)
            log.append("acknowledge \(batch.start): \(failure.map { "\($0)" } ?? "ok")")
        case .deadLetter:
            guard !inFlight.isEmpty else { return }
            let index = Int.random(in: 0..<inFlight.count, using: &random)
            let batch = inFlight[index]
            do {
                // One letter per event, as a tracker writes them (a page's impression alone).
                try deadLetters.add((events(batch.payloads) ?? []).map { ($0.standaloneBytes(), "refused in simulation") },
                                    at: Date(timeIntervalSince1970: 1_700_000_000))
                inFlight.remove(at: index)
                deadLettered.formUnion(ids(batch))
                journal.acknowledge(batch)
                log.append("dead-letter \(batch.start): ok")
            } catch {
                log.append("dead-letter \(batch.start): \(error) (batch stays out)")
            }
        case .requeueBegin:
            guard requeueing.count < 2 else { return }
            do {
                let (letters, end) = try deadLetters.read()
                requeueing.append((letters.map(\.payload), letters.map(\.letter.event.id.sequence), end))
                log.append("requeue begins: \(letters.count) letters, \(end.size) bytes")
            } catch {
                log.append("requeue begins: \(error)")
            }
        case .requeueEnd:
            guard !requeueing.isEmpty else { return }
            let (payloads, ids, end) = requeueing.remove(at: Int.random(in: 0..<requeueing.count, using: &random))
            do {
                for payload in payloads { _ = try journal.append(payload) }
                try journal.commit()
                promised.formUnion(ids)
            } catch {
                // Some may be journaled, and all are still dead letters: duplicates at worst. Durable on
                // commit, a failed commit there refused what was buffered too.
                log.append("requeue ends: \(error) (the letters stay)")
                if isOnCommit { buffered = [] }
                return
            }
            do {
                try deadLetters.remove(readUpTo: end)
                deadLettered.subtract(ids)
                log.append("requeue ends: \(ids.count) back to pending")
            } catch {
                log.append("requeue ends: journaled, but \(error) (the letters stay: duplicates)")
            }
        case .restart:
            let failure = journal.close(committing: !isOnCommit)
            if failure == nil, !isOnCommit { promised.formUnion(buffered) }
            buffered = []
            log.append("restart (clean close: \(failure.map { "\($0)" } ?? "ok"))")
            try reopen(SimulatedDisk(files: storage.disk.files))
        case .crash:
            log.append("crash (process killed)")
            try reopen(storage.disk.afterProcessCrash())
        case .powerLoss:
            log.append("power loss")
            var lossRandom = SeededRandom(seed: random.next())
            try reopen(storage.disk.afterPowerLoss(&lossRandom))
        case .fault:
            let operation = Bool.random(using: &random) ? nil : FaultyStorage.Operation.allCases.randomElement(using: &random)
            let fault: FaultyStorage.Fault = [.error(.noSpace), .error(.failed), .shortWrite, .syncFailure, .crash, .powerLoss]
                .randomElement(using: &random)!
            let countdown = Int.random(in: 0...6, using: &random)
            let times = fault == .crash || fault == .powerLoss ? 1 : Int.random(in: 1...3, using: &random)
            storage.arm(fault, on: operation, after: countdown, times: times)
            // A failed sync garbles what it did not make durable; the others leave, at most, part of a
            // write at the end of a file.
            if fault == .syncFailure { mayGarble = true }
            log.append("arm \(fault) on \(operation?.rawValue ?? "any call") after \(countdown), \(times)x")
        case .flip:
            let segments = storage.disk.files.filter { JournalState.segmentNumber($0.key) != nil && !$0.value.content.isEmpty }
            guard let (name, file) = segments.sorted(by: { $0.key < $1.key }).randomElement(using: &random) else { return }
            let offset = Int.random(in: 0..<file.content.count, using: &random)
            storage.flip(name, offset: offset, bit: Int.random(in: 0..<8, using: &random))
            flips += 1
            mayGarble = true
            log.append("flip a bit of \(name) at \(offset)")
        }
        if storage.crashed {
            log.append(storage.poweredOff ? "the power failed in that call" : "the process died in that call")
            try reopen(afterDeath(of: storage))
        }
    }

    private mutating func appendSome() throws(Violation) {
        let count = Int.random(in: 1...5, using: &random)
        var accepted: [UInt64] = []
        var last = 0
        for _ in 0..<count {
            // One append in five is a page of 2 to 6 impressions: one record, several events.
            let events = Int.random(in: 0..<5, using: &random) == 0 && !uniform ? Int.random(in: 2...6, using: &random) : 1
            let first = nextId + 1
            nextId += UInt64(events)
            let ids = first...nextId
            appended.formUnion(ids)
            eventsPerRecord = max(eventsPerRecord, events)
            do {
                let record = events == 1 ? payload(first) : pagePayload(first: first, count: events)
                last = try journal.append(record).serial
                accepted += ids
            } catch {
                log.append("append \(nextId): \(error)")
                if !isStrict, !isOnCommit, !error.isQueueFull, error != .shutDown { try expectDiskError(after: "a refused append") }
                break
            }
        }
        guard !accepted.isEmpty else { return }
        if isStrict {
            do {
                try journal.makeDurable(upTo: last)
                promised.formUnion(accepted)
                log.append("append strict \(accepted.first!)...\(accepted.last!): durable")
            } catch {
                log.append("append strict \(accepted.first!)...\(accepted.last!): \(error)")
                try expectDiskError(after: "a failed strict append")
            }
        } else {
            buffered.formUnion(accepted)
            log.append("append \(isOnCommit ? "on commit" : "batched") \(accepted.first!)...\(accepted.last!)")
        }
    }

    private func ids(_ batch: JournalBatch) -> [UInt64] {
        batch.payloads.flatMap { payload -> [UInt64] in
            var records: [EventRecord] = []
            return (try? EventRecord.read(payload, into: &records)) != nil ? records.map(\.id.sequence) : []
        }
    }

    /// Invariant 2: a disk error reaches the caller and stays in the statistics until a flush succeeds.
    private func expectDiskError(after what: String) throws(Violation) {
        if storage.crashed { return }
        guard journal.diskError != nil else { throw fail("\(what) left no disk error in the journal's state") }
    }

    /// What a process that died in a call left on disk: all it wrote, or after a power loss what survives.
    private mutating func afterDeath(of storage: FaultyStorage) -> SimulatedDisk {
        guard storage.poweredOff else { return storage.disk.afterProcessCrash() }
        var lossRandom = SeededRandom(seed: random.next())
        return storage.disk.afterPowerLoss(&lossRandom)
    }

    /// A new process: the journal opened again over what the disk holds.
    private mutating func reopen(_ disk: SimulatedDisk) throws(Violation) {
        damageReported += journal.damage.count
        var disk = disk
        if sabotage == .deleteOldestSegmentOnRestart, let oldest = disk.files.keys.filter({ JournalState.segmentNumber($0) != nil }).min() {
            disk.files[oldest] = nil
        }
        storage = FaultyStorage(disk: disk, seed: random.next())
        counted = [:]
        inFlight = []
        requeueing = []
        // Batched events not yet committed were in the dead process's memory: they may or may not be on disk.
        buffered = []
        // One start in four meets a fault of its own while it recovers (the process killed, the disk full
        // or failing at one of recovery's calls: reading, quarantining, writing the checkpoint, rewriting
        // or deleting a segment); when that start fails, the next one must still find everything promised.
        if Int.random(in: 0..<4, using: &random) == 0 {
            let fault: FaultyStorage.Fault = [.crash, .powerLoss, .error(.noSpace), .error(.failed)].randomElement(using: &random)!
            let countdown = Int.random(in: 0...24, using: &random)
            storage.arm(fault, on: nil, after: countdown)
            let quarantined = storage.disk.files[JournalQuarantine.fileName]?.content.count ?? 0
            do {
                let report: JournalRecoveryReport
                (journal, report) = try Journal.open(storage: storage, durability: durability, maxBytes: 1 << 30, segmentBytes: segmentBytes)
                // It reported the damage it repaired (which the next start no longer finds).
                damageReported += report.damage.count
                _ = journal.close()
                log.append("a start with \(fault) armed at recovery's call \(countdown + 1): it did not fire")
            } catch {
                log.append("a start failed: \(fault) at recovery's call \(countdown + 1): \(error)")
            }
            // Damage it copied to quarantine.log before failing is reported there, if nowhere else.
            if (storage.disk.files[JournalQuarantine.fileName]?.content.count ?? 0) > quarantined { damageReported += 1 }
            storage = FaultyStorage(disk: afterDeath(of: storage), seed: random.next())
        }
        do {
            let report: JournalRecoveryReport
            (journal, report) = try Journal.open(storage: storage, durability: durability, maxBytes: 1 << 30, segmentBytes: segmentBytes)
            damageReported += report.damage.count
            // Nothing here deletes a segment file but the journal (and the sabotage), and the journal never
            // one at or after the checkpoint's: a missing segment reported would be a false alarm.
            if sabotage == .none, let missing = report.damage.first(where: { $0.reason == Journal.missingSegment }) {
                throw fail("recovery reported a segment missing that no one deleted: \(missing)")
            }
            // Crashes and power losses alone leave torn tails: damage of any other kind would be a false alarm
            // (`recokit relay` fails a run for it, as for acknowledged lines lost).
            if sabotage == .none, !mayGarble, let damage = report.damage.first(where: { !$0.isInterruptedWrite }) {
                throw fail("after nothing but crashes and power losses, recovery reported damage other than a torn tail: \(damage)")
            }
            mayGarble = false
            deadLetters = DeadLetterStore(storage: storage, durable: true, window: Self.deadLetterWindow(seed: seed))
            // As a tracker opening the journal does: a dead-letter write cut short is cut off (never a letter
            // whose add returned: the end check finds every one of those in the file).
            do {
                if let cut = try deadLetters.cutOffAWriteCutShort() { log.append("dead letters: cut off \(cut)") }
            } catch {
                log.append("dead letters: cutting off a write cut short failed: \(error)")
            }
            log.append("reopened: \(report.pendingEvents) pending, \(report.damage.count) damaged stretches\(report.checkpointNote.map { ", note: \($0)" } ?? "")")
        } catch let violation as Violation {
            throw violation
        } catch {
            throw fail("the journal did not open after a restart: \(error)")
        }
    }

    private mutating func checkInvariants() throws(Violation) {
        let state = journal.withState { $0 }
        let files = storage.disk.files
        // A record is readable only once durable: every segment's synced part is on disk as synced.
        for segment in state.segments where segment.exists && segment.synced > 0 {
            guard let file = files[JournalState.fileName(segment.number)] else {
                throw fail("segment \(segment.number) holds \(segment.synced) durable bytes but its file is gone")
            }
            guard file.durable.count >= segment.synced else {
                throw fail("segment \(segment.number): \(segment.synced) bytes counted durable, \(file.durable.count) synced on disk")
            }
            // The journal's count of a segment's records is what the file holds (until bits are flipped).
            if flips == 0 {
                let key = CountKey(segment: segment.number, synced: segment.synced, size: file.content.count)
                let found = counted[key] ?? {
                    let (format, start, _) = RecordFrame.format(of: file.content, segment: segment.number)
                    var found = (records: 0, events: 0)
                    _ = RecordFrame.scan(Array(file.content.prefix(segment.synced)), segment: segment.number, from: start, format: format) { _, payload in
                        found.records += 1
                        found.events += PageRecordCodec.eventCount(of: payload)
                    }
                    return found
                }()
                counted[key] = found
                guard found.records == segment.syncedRecords else {
                    throw fail("segment \(segment.number): the journal counts \(segment.syncedRecords) durable records, the file holds \(found.records)")
                }
                guard found.events == segment.syncedEvents else {
                    throw fail("segment \(segment.number): the journal counts \(segment.syncedEvents) durable events, the file holds \(found.events)")
                }
            }
            // Invariant 2: after a failed write the file is cut back before anything else is written.
            if !segment.needsRollback, !segment.sealed, file.content.count != segment.size {
                throw fail("segment \(segment.number): the journal counts \(segment.size) bytes, the file has \(file.content.count)")
            }
        }
        // Invariant 4: the checkpoint names a place that exists (or, after a power loss, an older one).
        if let bytes = files[CheckpointFile.name]?.content, let checkpoint = CheckpointFile.decode(bytes) {
            let numbers = files.keys.compactMap(JournalState.segmentNumber).sorted()
            if let file = files[JournalState.fileName(checkpoint.segment)] {
                guard checkpoint.offset <= file.content.count else {
                    throw fail("the checkpoint names offset \(checkpoint.offset) of segment \(checkpoint.segment), which has \(file.content.count) bytes")
                }
            } else if let last = numbers.last, checkpoint.segment > last + 1 || (checkpoint.segment == last + 1 && checkpoint.offset > RecordFrame.segmentHeaderSize) {
                throw fail("the checkpoint names segment \(checkpoint.segment) offset \(checkpoint.offset), beyond the last segment \(last)")
            }
        }
        // Invariant 1, while running: what was promised and not settled is still counted pending.
        let outstanding = promised.subtracting(delivered).subtracting(deadLettered).count
        guard state.pending >= outstanding - flipCost else {
            throw fail("\(outstanding) promised events are unsettled but the journal counts only \(state.pending) pending (\(flips) bits flipped)")
        }
    }

    /// Faults off, a clean start, everything drained: each promised event was delivered or dead-lettered,
    /// or lost only to a flipped bit that was reported as damage.
    private mutating func finish() throws(Violation) {
        storage.disarm()
        step += 1
        log.append("finish: crash and drain")
        try reopen(storage.disk.afterProcessCrash())
        storage.disarm()
        var rounds = 0
        while rounds < 100_000 {
            rounds += 1
            let batch: JournalBatch?
            do { batch = try journal.take(maxCount: 500, maxBytes: 1 << 20, interval: .zero, force: true) } catch {
                throw fail("draining failed: \(error)")
            }
            guard let batch else { break }
            guard let records = events(batch.payloads) else { throw fail("draining returned a payload that does not decode") }
            for record in records {
                guard appended.contains(record.id.sequence) else { throw fail("draining returned an event that was never appended") }
                delivered.insert(record.id.sequence)
            }
            journal.acknowledge(batch)
        }
        damageReported += journal.damage.count
        // What the model counts dead-lettered is in the dead-letter file (a re-queue forgot none it had not re-queued).
        let letters: Set<UInt64>
        do { letters = Set(try deadLetters.list().map(\.letter.event.id.sequence)) } catch { throw fail("listing dead letters failed: \(error)") }
        let forgotten = deadLettered.subtracting(letters)
        guard forgotten.isEmpty else { throw fail("\(forgotten.count) dead letters are gone from the file: \(forgotten.sorted().prefix(10))") }
        guard journal.pendingCount == 0 else { throw fail("drained, yet \(journal.pendingCount) events are counted pending") }
        let missing = promised.subtracting(delivered).subtracting(deadLettered)
        guard missing.count <= flipCost else {
            throw fail("\(missing.count) promised events were never delivered (\(flips) bits flipped): \(missing.sorted().prefix(10))")
        }
        if !missing.isEmpty, damageReported == 0 {
            throw fail("\(missing.count) promised events are gone and no damage was reported")
        }
        _ = journal.close()
    }
}
