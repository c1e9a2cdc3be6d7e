import Foundation

/// The on-disk queue of accepted events: numbered segment files of checksummed records, a delivery
/// checkpoint, and group commit.
///
/// The state is a plain value (``JournalState``) behind one lock; this class does the I/O between a
/// transition's plan and its completion, through a ``JournalStorage``. Writers append to a buffer under
/// the lock; a flush (one at a time) writes the buffer and `sync`s it, and every caller waiting for a
/// record it covered returns (one `sync` serves everyone: group commit). Readers take batches only from
/// the durable part, read from storage (the backlog is never held in memory). Batches may be acknowledged
/// in any order; the checkpoint is the start of the oldest unacknowledged batch, and segments wholly
/// before it are deleted.
final class Journal: @unchecked Sendable {
    let storage: any JournalStorage
    let durability: Durability
    /// The state, behind its lock (``Locked``: no run-time exclusivity checks on the way in).
    private let state: Locked<JournalState>
    /// One flush at a time, one take at a time, one checkpoint write at a time.
    private let flushLock = NSLock()
    private let readLock = NSLock()
    private let acknowledgeLock = NSLock()
    /// The time on the clock a record's wait for its batch is measured on.
    let now: @Sendable () -> Duration

    init(storage: any JournalStorage, state: JournalState, clock: any TrackingClock = SystemTrackingClock()) {
        self.storage = storage
        self.durability = state.durability
        self.state = Locked(state)
        self.now = { clock.continuousTime() }
    }

    /// Runs `body` on the state under the lock (no I/O inside); throws what `body` throws.
    @inline(__always)
    func withState<Result: Sendable, Failure: Error>(_ body: (inout JournalState) throws(Failure) -> Result) throws(Failure) -> Result {
        try state.withLock(body)
    }

    private var isMemory: Bool { durability == .memory }

    // MARK: Writing

    /// Appends one record; returns its serial (for ``makeDurable(upTo:)``). Nothing is written here: a
    /// strict caller makes it durable next, and `writeOut` says that the buffer has grown to
    /// ``JournalState/bufferLimit`` between commits (batched, or in memory), for the caller to write it
    /// out now, off its own thread.
    /// `wakesSenders`: this append reached the serial idle senders wait for (``wakeSenders(at:)``).
    func append(_ record: some RandomAccessCollection<UInt8>) throws(TrackingError) -> (serial: Int, wakesSenders: Bool, writeOut: Bool) {
        try withState { (state: inout JournalState) throws(TrackingError) in
            let serial = try state.append(record)
            let wakes = serial >= state.wakeSendersAt
            if wakes { state.wakeSendersAt = .max }
            return (serial, wakes, state.flushDue && !state.isStrict)
        }
    }

    /// What an idle sender needs to choose how long to sleep, read under the lock, after asking that the
    /// append of serial `wakeAt(lastSerial, untaken)` report `wakesSenders` (one compare per append,
    /// instead of a lock of its own).
    func wakeSenders(at wakeAt: (_ lastSerial: Int, _ untaken: Int) -> Int) -> (untaken: Int, readableSince: Duration?) {
        withState { state in
            state.wakeSendersAt = min(state.wakeSendersAt, wakeAt(state.lastSerial, state.untaken))
            return (state.untaken, state.readableSince)
        }
    }

    /// Writes what is buffered and `sync`s it (group commit); throws the disk's error. In memory it only
    /// publishes the buffer to readers.
    func commit() throws(TrackingError) {
        try makeDurable(upTo: withState { $0.lastSerial })
    }

    /// Returns once the record with `serial` (and every one before it) is durable, sharing one flush with
    /// concurrent callers. Throws the disk's error when the flush that carried it failed: in strict mode
    /// that record is then refused (not kept); in batched mode it stays buffered for the next commit.
    func makeDurable(upTo serial: Int) throws(TrackingError) {
        flushLock.lock()
        defer { flushLock.unlock() }
        if try withState({ (state: inout JournalState) throws(TrackingError) in try state.durability(of: serial) }) { return }
        if let failure = flushLocked() {
            _ = try withState { (state: inout JournalState) throws(TrackingError) in try state.durability(of: serial) }
            throw failure
        }
    }

    /// One flush: plan, I/O, completion. Called with `flushLock` held.
    private func flushLocked() -> TrackingError? {
        guard let plan = withState({ $0.planFlush() }) else { return nil }
        var outcome = JournalState.FlushOutcome()
        if let rollback = plan.rollback {
            do { try storage.truncate(JournalState.fileName(rollback.segment), to: rollback.size) } catch {
                outcome.rollbackFailed = error.trackingError
            }
        }
        let name = JournalState.fileName(plan.segment)
        if !plan.bytes.isEmpty {
            do {
                let wrote = try storage.append(name, plan.bytes)
                if wrote < plan.bytes.count {
                    outcome.writeFailed = .journal("cannot write \(storage.location)/\(name): short write (\(wrote) of \(plan.bytes.count) bytes; the disk may be full)")
                }
            } catch {
                outcome.writeFailed = error.trackingError
            }
            if outcome.writeFailed != nil {
                // Back to the last whole record before anything else is written.
                do { try storage.truncate(name, to: plan.base) } catch { outcome.writeRolledBack = false }
            }
        }
        if outcome.writeFailed == nil {
            for segment in plan.sync {
                do {
                    try storage.sync(JournalState.fileName(segment))
                    outcome.synced.append(segment)
                } catch {
                    let durableSize = withState { state in state.segments.first { $0.number == segment }?.synced ?? 0 }
                    let rolledBack = (try? storage.truncate(JournalState.fileName(segment), to: durableSize)) != nil
                    outcome.syncFailed = (segment, error.trackingError, rolledBack)
                    break
                }
            }
        }
        let now = now()
        return withState { $0.flushCompleted(plan, outcome, now: now) }
    }

    // MARK: Reading

    /// The next batch, if one is due: a full batch is ready, or the oldest readable record has waited
    /// `interval`, or `force`. Damage met on the way is moved to quarantine and reported
    /// (``damage``); the batch holds the records around it.
    func take(maxCount: Int, maxBytes: Int, interval: Duration, force: Bool) throws(TrackingError) -> JournalBatch? {
        readLock.lock()
        defer { readLock.unlock() }
        if isMemory { try commit() }
        var start: JournalPosition?
        var payloads: [ArraySlice<UInt8>] = []
        var bytes = 0, events = 0
        var readError: TrackingError?
        // A batch may span segments: read on until it is full or nothing more is readable.
        while payloads.count < maxCount, bytes < maxBytes {
            let now = now()
            guard let plan = withState({ $0.planTake(maxCount: maxCount - payloads.count, maxBytes: maxBytes - bytes, interval: interval,
                                                     force: force || !payloads.isEmpty, now: now) }) else { break }
            let chunk: JournalState.ReadChunk
            do {
                chunk = try read(plan, firstMayExceed: payloads.isEmpty)
                if !chunk.damage.isEmpty { try quarantine(chunk.damage, of: plan.segment) }
            } catch {
                // What was read already is a batch: the reader has passed it, so it must go out (with the
                // error, which is the caller's to report).
                if payloads.isEmpty { throw error }
                readError = error
                break
            }
            let from = withState { $0.takeCompleted(plan, chunk: chunk) }
            if chunk.payloads.isEmpty {
                // Only padding or damage: read on, unless nothing was consumed (the next record does not fit).
                if chunk.next > plan.offset { continue }
                break
            }
            if start == nil { start = from }
            if payloads.isEmpty { payloads = chunk.payloads } else { payloads += chunk.payloads }
            bytes += chunk.bytes
            events += chunk.events
        }
        guard let start, !payloads.isEmpty else { return nil }
        let now = now()
        var batch = withState { $0.batchTaken(start: start, payloads: payloads, events: events, now: now) }
        batch.readError = readError
        return batch
    }

    /// Copies damaged stretches met while reading to `quarantine.log` (durably) before the reader passes them.
    /// - Throws: the disk's error when a stretch cannot be read or the log not written: the reader then does
    ///   not pass the damage (an entry without its bytes would lose them), and meets it again later.
    private func quarantine(_ damage: [RecordFrame.BadStretch], of segment: UInt64) throws(TrackingError) {
        let name = JournalState.fileName(segment)
        var entries: [JournalQuarantine.Entry] = []
        for stretch in damage {
            let bytes: [UInt8]
            do { bytes = try storage.read(name, offset: stretch.offset, count: stretch.count) } catch { throw error.trackingError }
            entries.append(JournalQuarantine.Entry(file: name, offset: stretch.offset, bytes: bytes[...], reason: stretch.reason))
        }
        try JournalQuarantine.add(entries, to: storage)
    }

    /// Reads and parses the records of one plan, up to its count and byte limits.
    private func read(_ plan: JournalState.ReadPlan, firstMayExceed: Bool) throws(TrackingError) -> JournalState.ReadChunk {
        let name = JournalState.fileName(plan.segment)
        // Room for the plan's count of the segment's typical records (an eighth over its average), not
        // its whole byte limit: reading 576 KiB to take 500 small records copied each byte five times, and
        // a fixed 512 bytes a record still twice for records of 200. A batch of larger records reads on in
        // the next chunk (`take` plans again until it is full).
        let perRecord = plan.typicalRecord + plan.typicalRecord / 8
        let typical = plan.maxCount < Int.max / perRecord ? plan.maxCount * perRecord : Int.max
        var wanted = min(plan.end - plan.offset, min(plan.maxBytes, typical) + 4 * 1024)
        while true {
            let bytes: [UInt8]
            do { bytes = try storage.read(name, offset: plan.offset, count: wanted) } catch { throw error.trackingError }
            let whole = wanted == plan.end - plan.offset
            if let chunk = parse(bytes, plan: plan, whole: whole, firstMayExceed: firstMayExceed) { return chunk }
            // Damage, or a record longer than the chunk: read everything up to the durable end.
            wanted = plan.end - plan.offset
        }
    }

    /// The records of `bytes` (which start at the plan's offset), or nil when more must be read first:
    /// a partial chunk that ends inside damage or holds not even one whole record.
    /// `firstMayExceed`: the first record is taken even when it alone is over the byte limit (a batch
    /// holds at least one record).
    private func parse(_ bytes: [UInt8], plan: JournalState.ReadPlan, whole: Bool, firstMayExceed: Bool) -> JournalState.ReadChunk? {
        var chunk = JournalState.ReadChunk(damage: [], next: plan.offset)
        var index = 0
        if whole, bytes.count < plan.end - plan.offset {
            // The file is shorter than what was written and synced: the missing bytes are damage too.
            chunk.damage.append(RecordFrame.BadStretch(offset: plan.offset + bytes.count, count: plan.end - plan.offset - bytes.count,
                                                       reason: "the file is shorter than what was written", atEnd: true))
        }
        reading: while index < bytes.count, chunk.payloads.count < plan.maxCount {
            switch RecordFrame.frame(in: bytes, at: index, base: plan.offset, segment: plan.segment, format: plan.format) {
            case .record(let payload, let next):
                if payload.first == RecordFrame.paddingMark { index = next; continue }
                if !chunk.payloads.isEmpty || !firstMayExceed, chunk.bytes + payload.count > plan.maxBytes { break reading }
                chunk.payloads.append(payload)
                chunk.bytes += payload.count
                chunk.events += PageRecordCodec.eventCount(of: payload)
                index = next
            case .incomplete where !whole:
                if chunk.payloads.isEmpty, firstMayExceed { return nil }
                break reading
            case .incomplete, .invalid:
                guard whole else { return nil }
                let found = RecordFrame.scan(Array(bytes[index...]), base: plan.offset + index, segment: plan.segment,
                                             from: plan.offset + index, format: plan.format) { _, _ in }
                guard let stretch = found.first else { break reading }
                chunk.damage.insert(stretch, at: 0)
                index = stretch.offset + stretch.count - plan.offset
            }
        }
        chunk.damage.sort { $0.offset < $1.offset }
        chunk.next = index >= bytes.count && whole ? plan.end : plan.offset + index
        return chunk
    }

    /// Counts `events` of a batch still out as delivered (no longer pending) before the whole batch is
    /// acknowledged: a page's record may go out in several requests.
    func delivered(_ events: Int, of batch: JournalBatch) {
        withState { $0.delivered(events, of: batch) }
    }

    /// Forgets a delivered (or dead-lettered) batch: records the new checkpoint, then deletes the
    /// segments wholly before it. Returns the disk's error, if writing the checkpoint or deleting failed
    /// (the batch is forgotten all the same; the next acknowledgement tries again).
    @discardableResult
    func acknowledge(_ batch: JournalBatch) -> TrackingError? {
        acknowledgeLock.lock()
        defer { acknowledgeLock.unlock() }
        guard let plan = withState({ $0.acknowledge(batch) }) else { return nil }
        do {
            // Written over in place (20 bytes, checked by their CRC), not synced: a checkpoint lost with the
            // machine, or torn, makes recovery start from an older one (duplicates, never loss).
            try storage.overwrite(CheckpointFile.name, with: CheckpointFile.encode(plan.checkpoint), padding: 0)
        } catch {
            return error.trackingError
        }
        var removed: [UInt64] = []
        var failure: TrackingError?
        for number in plan.remove {
            do { try storage.remove(JournalState.fileName(number)) } catch { failure = error.trackingError; break }
            removed.append(number)
        }
        withState { $0.removed(removed) }
        return failure
    }

    // MARK: State

    /// Events accepted and not yet delivered or dead-lettered (nor lost to damage, nor refused): a page's
    /// record counts its impressions.
    var pendingCount: Int { withState { $0.pending } }
    /// Bytes of the segment files plus the buffer.
    var bytes: Int { withState { $0.totalBytes } }
    /// Events not yet taken for delivery (durable or not).
    var untakenCount: Int { withState { $0.untaken } }
    /// Batches out for delivery.
    var inFlightCount: Int { withState { $0.inFlight.count } }
    /// The first bytes of the oldest record still pending (durable or buffered), for its time; nil when
    /// none is, or its bytes hold no record.
    /// - Throws: the disk's error when the bytes cannot be read: a disk that fails reads is for the
    ///   caller to report, not to pass over.
    func oldestPendingRecord() throws(TrackingError) -> [UInt8]? {
        let found = withState { state -> (position: JournalPosition, format: RecordFrame.Format, end: Int)?? in
            guard state.pending > 0 else { return .some(nil) }
            var position = state.inFlight.keys.min() ?? state.readCursor
            for segment in state.segments where segment.number >= position.segment {
                if segment.number > position.segment { position = JournalPosition(segment: segment.number, offset: 0) }
                let from = max(position.offset, segment.format == .version2 ? RecordFrame.segmentHeaderSize : 0)
                if from < segment.synced { return (JournalPosition(segment: segment.number, offset: from), segment.format, segment.synced) }
            }
            return nil
        }
        switch found {
        case .some(.some(let place)):
            let count = min(place.end - place.position.offset, RecordFrame.headerSize + 64)
            let bytes: [UInt8]
            do { bytes = try storage.read(JournalState.fileName(place.position.segment), offset: place.position.offset, count: count) } catch {
                throw error.trackingError
            }
            guard case .record(let payload, _) = RecordFrame.frame(in: bytes, at: 0, base: place.position.offset,
                                                                   segment: place.position.segment, format: place.format),
                  payload.first != RecordFrame.paddingMark else { return nil }
            return Array(payload)
        case .some(.none):
            return nil
        case .none:
            // Nothing durable is pending: the oldest is still in the buffer.
            return withState { state in state.buffer.firstPayload.map { Array($0.prefix(64)) } }
        }
    }

    /// The checkpoint as the journal holds it.
    var checkpoint: JournalPosition { withState { $0.checkpoint } }
    /// The last disk error, until a flush succeeds.
    var diskError: TrackingError? { withState { $0.diskError } }
    /// Damage met while reading (not at open).
    var damage: [JournalRecoveryReport.Damage] { withState { $0.damage } }

    /// Writes the buffer, syncs, closes the storage (releasing its lock). Returns the disk's error, if the
    /// last flush failed (what it held stays unwritten: in batched mode, those events are lost with the
    /// process, and the error says so).
    @discardableResult
    /// `committing`: false to leave what was appended since the last commit unwritten (``Durability/onCommit``:
    /// only the caller's commits make records durable).
    func close(committing: Bool = true) -> TrackingError? {
        var failure: TrackingError?
        if committing {
            do { try commit() } catch { failure = error }
        }
        let first = withState { state -> Bool in
            defer { state.closed = true; state.intakeClosed = true }
            return !state.closed
        }
        if first { storage.close() }
        return failure
    }

    /// Stops accepting appends (reads and acknowledgements go on).
    func closeIntake() {
        withState { $0.intakeClosed = true }
    }
}
