import Foundation

/// Everything the journal knows, as a plain value: which segments exist and how much of each is written
/// and durable, the records waiting to be written, the reader's place, the batches out for delivery and
/// the checkpoint. Transitions do no I/O: they return what to write, read or remove (a plan), and are
/// told what happened (``flushCompleted(_:_:)``, ``takeCompleted(_:chunk:)``…). ``Journal`` holds the
/// value behind one lock and does the I/O between a plan and its completion.
///
/// The invariants it keeps (`RecoTracking.docc` names them; the simulation checks them after every step):
/// - a record is readable only once durable (`synced`), so the reader never sees bytes a failure can undo;
/// - a failed write or `sync` leaves the segment to be cut back to its last durable record before
///   anything else is written to it; the records that failed are put back to be written again (batched)
///   or refused to the callers waiting for them (strict);
/// - the checkpoint only ever names a place in a segment that exists (never one not yet created);
/// - every record is counted until it is acknowledged or reported lost in a damage report.
///
/// Records and events: a record holds one event, or a page's impressions (``PageRecordCodec``), one event
/// each. The reader's bookkeeping counts records (what it reads and passes); what a user is told (pending,
/// events lost to damage) counts events, kept beside the records' counts segment by segment.
struct JournalState {
    struct Segment: Equatable {
        let number: UInt64
        var format: RecordFrame.Format = .version2
        /// Bytes of whole records (and the header) in the file, as far as the journal knows.
        var size = 0
        /// Bytes known durable: the reader reads up to here.
        var synced = 0
        /// Records in the segment (all of them, delivered or not).
        var records = 0
        /// Records in the durable part.
        var syncedRecords = 0
        /// Records the reader has passed (taken, or before the checkpoint at open).
        var readRecords = 0
        /// Records found missing (damage) and already counted as lost.
        var lostRecords = 0
        /// The events of those records: all of them, the durable part's, the part read, and the lost ones.
        var events = 0
        var syncedEvents = 0
        var readEvents = 0
        var lostEvents = 0
        /// Whether the file exists (it is created with its header by the first write).
        var exists = false
        /// No more appends: rotated, recovered, or cut off after a failure.
        var sealed = false
        /// The file may hold bytes past `size` (a failed write or `sync`) to cut off before the next write.
        var needsRollback = false
    }

    let durability: Durability
    let maxBytes: Int
    let segmentBytes: Int

    var segments: [Segment] = []
    /// Payloads accepted and not yet written, oldest first, with their serial numbers.
    var buffer = PendingRecords()
    /// Bytes the buffer will take in a segment: its payloads and a frame header each.
    var bufferBytes: Int { buffer.framedCount }
    /// Payloads written but not yet durable, a flush's records at a time with their segment: what a
    /// failed `sync` puts back (one entry a flush, not one a record: each was an append and a release).
    var unsynced: [(segment: UInt64, records: [(serial: Int, payload: ArraySlice<UInt8>)])] = []
    /// A flush is between its plan and its completion (flushes are serialised by the journal).
    var flushing = false

    /// Serial numbers: one per appended record, in order.
    var lastSerial = 0
    /// Every record up to this serial that was not refused is durable.
    var durableSerial = 0
    /// Serials refused after a failed write (strict), with the error, for the callers still waiting.
    var refused: [(serials: ClosedRange<Int>, error: TrackingError)] = []

    var readCursor = JournalPosition(segment: 1, offset: 0)
    var checkpoint = JournalPosition(segment: 1, offset: 0)
    /// The batches out for delivery, by where they start: the events of each not yet counted delivered.
    var inFlight: [JournalPosition: Int] = [:]
    /// Records durable, taken, and found lost since open (recovered records count as durable).
    var durableRecords = 0
    var takenRecords = 0
    var lostRecords = 0
    /// Events (not records: a page's record counts its impressions) accepted and neither delivered nor
    /// dead-lettered (acknowledged, or reported delivered from a batch still out), lost, nor refused.
    var pending = 0
    /// When the oldest readable record became readable, on the journal's clock (``Journal/now``).
    var readableSince: Duration?
    /// When records happened, sampled as they are appended: each record's place in the journal's order
    /// (``nextRecord``) and its `occurred` time in epoch milliseconds, at most one entry a second of that
    /// time, oldest first. The entries of records the reader has passed are dropped as it passes them, so
    /// the first tells (to the second) when the oldest record not yet taken happened, without a read.
    var occurred = OccurredSamples()
    /// The place in the journal's order of the next record appended (recovered records come first).
    var nextRecord = 0
    /// The serial at which an append wakes the idle senders (`Int.max`: none waits for appends).
    var wakeSendersAt = Int.max
    var intakeClosed = false
    var closed = false
    /// The last disk error, until a write and `sync` succeed.
    var diskError: TrackingError?
    /// Damage met while running (read from disk, not at open).
    var damage: [JournalRecoveryReport.Damage] = []

    /// The batched-mode buffer is written out when it reaches this size even between commits.
    static let bufferLimit = 256 * 1024
    /// In batched mode, the most the buffer may hold while its writing lags (a disk slow to `fsync`): an
    /// append past it is refused (``TrackingError/queueFull``) rather than wait, or grow the memory.
    static let bufferHardLimit = 16 << 20

    init(durability: Durability, maxBytes: Int, segmentBytes: Int) {
        self.durability = durability
        self.maxBytes = maxBytes
        self.segmentBytes = segmentBytes
    }

    var isMemory: Bool { durability == .memory }
    var isStrict: Bool { durability == .strict }
    /// Whether the records of a failed write or `sync` are refused to their callers (who wait for them, or
    /// for the commit that carries them) rather than written again.
    var refusesFailedRecords: Bool { durability == .strict || durability == .onCommit }

    /// Bytes of the segments plus what waits to be written.
    var totalBytes: Int { segments.reduce(0) { $0 + $1.size } + bufferBytes }
    /// Records durable and not yet taken.
    var readable: Int { durableRecords - takenRecords - lostRecords }
    /// Events not yet taken (durable or not).
    var untaken: Int { pending - inFlight.values.reduce(0, +) }

    /// The events a record holds (one, or a page's impressions).
    static func events(in payload: ArraySlice<UInt8>) -> Int { PageRecordCodec.eventCount(of: payload) }

    static func events(in records: [(serial: Int, payload: ArraySlice<UInt8>)]) -> Int {
        records.reduce(0) { $0 + events(in: $1.payload) }
    }

    var active: Segment { segments[segments.count - 1] }

    static func fileName(_ segment: UInt64) -> String {
        let digits = String(segment)
        return "segment-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits + ".log"
    }

    static func segmentNumber(_ name: String) -> UInt64? {
        guard name.hasPrefix("segment-"), name.hasSuffix(".log"), name.count == 24 else { return nil }
        return UInt64(name.dropFirst(8).dropLast(4))
    }

    private func index(of number: UInt64) -> Int? { segments.firstIndex { $0.number == number } }

    // MARK: Appending

    /// Takes a record into the buffer; returns its serial.
    mutating func append(_ payload: some RandomAccessCollection<UInt8>) throws(TrackingError) -> Int {
        guard !intakeClosed else { throw .shutDown }
        // Batched: while the disk fails, what is accepted could not be made durable; refuse instead.
        if case .batched = durability, let diskError { throw diskError }
        let size = payload.count + RecordFrame.headerSize
        guard totalBytes + size <= maxBytes else { throw .queueFull }
        if case .batched = durability, bufferBytes + size > Self.bufferHardLimit { throw .queueFull }
        guard payload.count <= RecordFrame.maximumPayload else {
            throw .journal("an event of \(payload.count) bytes is larger than the journal takes (\(RecordFrame.maximumPayload))")
        }
        // Read from the bytes handed in (the tracker's room), not from a slice of the buffer (a retain and
        // a release each); a page's record is counted from the buffer, where its count is read.
        let millis = StoredRecord.occurredMilliseconds(in: payload)
        let isPage = payload.first == PageRecordCodec.version
        lastSerial += 1
        let range = buffer.append(serial: lastSerial, payload)
        if let millis { occurred.note(record: nextRecord, millis: millis) }
        nextRecord += 1
        pending += isPage ? Self.events(in: buffer.payload(range)) : 1
        return lastSerial
    }

    /// Whether an appender should write out now rather than wait for the next commit.
    /// (Durable on commit, only the caller's commits write: what no commit covered is never written.)
    var flushDue: Bool { isStrict || (durability != .onCommit && bufferBytes >= Self.bufferLimit) }

    /// Whether every record up to `serial` is durable; throws the error that refused it.
    func durability(of serial: Int) throws(TrackingError) -> Bool {
        if let refusal = refused.last(where: { $0.serials.contains(serial) }) { throw refusal.error }
        return serial <= durableSerial
    }

    // MARK: Writing

    /// What one flush does: cut back a segment after a failure, write records to one segment, `sync`.
    struct FlushPlan {
        var rollback: (segment: UInt64, size: Int)?
        /// The segment written to, and whether the write creates it (the bytes then start with its header).
        var segment: UInt64
        var base: Int
        var bytes: ArraySlice<UInt8>
        var records: [(serial: Int, payload: ArraySlice<UInt8>)]
        /// Segments with bytes not yet durable, oldest first; `sync` each (empty in memory).
        var sync: [UInt64]
    }

    /// The next flush: frames what is buffered for where it will stand (a segment that is full, or was
    /// cut off after a failure, is sealed and the next one started), and lists what to `sync`.
    /// nil when there is nothing to write or make durable.
    mutating func planFlush() -> FlushPlan? {
        precondition(!flushing, "flushes are serialised by the journal")
        if segments.isEmpty || active.sealed || (active.exists && active.size >= segmentBytes) {
            if !segments.isEmpty { segments[segments.count - 1].sealed = true }
            segments.append(Segment(number: (segments.last?.number ?? 0) + 1))
        }
        let rollback = segments.first(where: \.needsRollback).map { (segment: $0.number, size: $0.synced) }
        let toSync = isMemory ? [] : segments.filter { $0.exists && $0.synced < $0.size }.map(\.number)
        guard !buffer.isEmpty || !toSync.isEmpty || rollback != nil else {
            // Nothing waits for the disk: whatever failed before has nothing left to fail.
            diskError = nil
            return nil
        }
        let target = active
        let base = target.exists ? target.size : 0
        // Framed where they lie in the buffer (a new segment's header before them), written from there.
        let (bytes, records) = buffer.framed(segment: target.number, base: base, withSegmentHeader: !target.exists)
        flushing = true
        var sync = toSync
        if !isMemory, !records.isEmpty, !sync.contains(target.number) { sync.append(target.number) }
        return FlushPlan(rollback: rollback, segment: target.number, base: base, bytes: bytes, records: records, sync: sync)
    }

    /// What the I/O of a flush did.
    struct FlushOutcome {
        /// The rollback's result, if there was one.
        var rollbackFailed: TrackingError?
        /// nil: every byte was written.
        var writeFailed: TrackingError?
        /// Whether the file was cut back to `base` after a failed write (rollback succeeded).
        var writeRolledBack = true
        /// Segments synced, in the plan's order, up to the first failure.
        var synced: [UInt64] = []
        var syncFailed: (segment: UInt64, error: TrackingError, rolledBack: Bool)?
    }

    /// Applies a flush's outcome. Returns the error to throw to whoever asked for the flush.
    mutating func flushCompleted(_ plan: FlushPlan, _ outcome: FlushOutcome, now: Duration) -> TrackingError? {
        flushing = false
        if let rollback = plan.rollback, let at = index(of: rollback.segment) {
            // Cut back, or (when even that failed) left with junk past `size` that no one reads or
            // writes again; recovery reports it.
            segments[at].needsRollback = false
            if outcome.rollbackFailed != nil { segments[at].sealed = true }
        }
        guard let at = index(of: plan.segment) else { return outcome.writeFailed }
        var failure: TrackingError?
        var failedRecords: [(serial: Int, payload: ArraySlice<UInt8>)] = []
        segments[at].exists = true   // even a failed write may have created it
        if let error = outcome.writeFailed {
            failure = error
            failedRecords = plan.records
            // Not written to again: the next flush starts a new segment.
            segments[at].sealed = true
            segments[at].needsRollback = !outcome.writeRolledBack
        } else {
            segments[at].size = plan.base + plan.bytes.count
            segments[at].records += plan.records.count
            segments[at].events += Self.events(in: plan.records)
            if isMemory {
                durableRecords += plan.records.count
                segments[at].synced = segments[at].size
                segments[at].syncedRecords = segments[at].records
                segments[at].syncedEvents = segments[at].events
            } else {
                unsynced.append((plan.segment, plan.records))
            }
        }
        for number in outcome.synced {
            guard let synced = index(of: number) else { continue }
            durableRecords += segments[synced].records - segments[synced].syncedRecords
            segments[synced].synced = segments[synced].size
            segments[synced].syncedRecords = segments[synced].records
            segments[synced].syncedEvents = segments[synced].events
            unsynced.removeAll { $0.segment == number }
        }
        if let syncFailure = outcome.syncFailed, let bad = index(of: syncFailure.segment) {
            // After a failed fsync the system may have dropped the written pages: what was written since
            // the last good sync is unknown. Cut it off (or leave it past `size` if even that fails), seal
            // the segment, and write those records again elsewhere.
            failure = failure ?? syncFailure.error
            let lost = unsynced.filter { $0.segment == syncFailure.segment }.flatMap(\.records)
            unsynced.removeAll { $0.segment == syncFailure.segment }
            failedRecords = lost + failedRecords
            segments[bad].records = segments[bad].syncedRecords
            segments[bad].events = segments[bad].syncedEvents
            segments[bad].size = segments[bad].synced
            segments[bad].sealed = true
            segments[bad].needsRollback = !syncFailure.rolledBack
        }
        if let failure {
            diskError = failure
            settleFailed(failedRecords, failure)
        } else {
            // A rollback that failed left junk past the end of a sealed segment, which nothing reads (recovery
            // reports it); the write itself went through, so the disk works again.
            diskError = nil
            // Everything before the oldest record still buffered (appended during this flush) is durable.
            durableSerial = max(durableSerial, (buffer.firstSerial ?? lastSerial + 1) - 1)
        }
        markReadable(now: now)
        return failure
    }

    /// Records whose write or `sync` failed: batched, they go back to be written again (they were
    /// accepted); strict, they are refused to the callers waiting for them (who get the error).
    private mutating func settleFailed(_ records: [(serial: Int, payload: ArraySlice<UInt8>)], _ error: TrackingError) {
        guard !records.isEmpty else { return }
        if refusesFailedRecords {
            let serials = records.map(\.serial)
            refused.append((serials.min()!...serials.max()!, error))
            if refused.count > 64 { refused.removeFirst(refused.count - 64) }
            pending -= Self.events(in: records)
        } else {
            buffer.putBack(records)
        }
    }

    private mutating func markReadable(now: Duration) {
        if readableSince == nil, readable > 0 { readableSince = now }
    }

    // MARK: Reading

    /// Where the reader reads next: a stretch of one segment's durable bytes.
    struct ReadPlan {
        var segment: UInt64
        var format: RecordFrame.Format
        var offset: Int
        var end: Int
        var maxCount: Int
        var maxBytes: Int
        /// The segment's average framed record so far (512 before it has any): what the reader sizes its
        /// read by, so that a batch of `maxCount` records is about one read.
        var typicalRecord = 512
    }

    /// The next read, if a batch is due: a full batch is readable, the oldest readable record has waited
    /// `interval`, or `force`. Moves the reader to the next segment when it has passed the end of one
    /// that is complete.
    mutating func planTake(maxCount: Int, maxBytes: Int, interval: Duration, force: Bool, now: Duration) -> ReadPlan? {
        guard readable > 0 else { readableSince = nil; return nil }
        if !force, readable < maxCount, let since = readableSince, now - since < interval { return nil }
        while let at = index(of: readCursor.segment) {
            let segment = segments[at]
            let from = max(readCursor.offset, segment.format == .version2 ? RecordFrame.segmentHeaderSize : 0)
            if from < segment.synced {
                let header = segment.format == .version2 ? RecordFrame.segmentHeaderSize : 0
                let typical = segment.records > 0 ? max(RecordFrame.headerSize + 1, (segment.size - header) / segment.records) : 512
                return ReadPlan(segment: segment.number, format: segment.format, offset: from,
                                end: segment.synced, maxCount: maxCount, maxBytes: maxBytes, typicalRecord: typical)
            }
            accountMissing(at)
            // Move on only past a segment that will get no more records, and only to one that exists.
            guard segment.sealed, segment.synced == segment.size, at + 1 < segments.count, segments[at + 1].exists else { return nil }
            readCursor = JournalPosition(segment: segments[at + 1].number, offset: 0)
        }
        return nil
    }

    /// Records of a segment that the reader has passed without reading: they were in damage it
    /// reported. Counted as lost (once), with their events.
    private mutating func accountMissing(_ at: Int) {
        let missing = segments[at].syncedRecords - segments[at].readRecords - segments[at].lostRecords
        guard missing > 0 else { return }
        let events = segments[at].syncedEvents - segments[at].readEvents - segments[at].lostEvents
        segments[at].lostRecords += missing
        segments[at].lostEvents += events
        lostRecords += missing
        pending -= events
        if let last = damage.lastIndex(where: { $0.file == Self.fileName(segments[at].number) }) {
            damage[last].lostEvents = (damage[last].lostEvents ?? 0) + events
        } else {
            damage.append(.init(file: Self.fileName(segments[at].number), offset: segments[at].synced, bytesSkipped: 0,
                                reason: "records missing from the durable part", lostEvents: events))
        }
    }

    /// What a read found: records' payloads (with their events and bytes, counted as they were read),
    /// damaged stretches, and where reading stopped.
    struct ReadChunk {
        var payloads: [ArraySlice<UInt8>] = []
        /// The events the payloads hold (a page's record holds its impressions).
        var events = 0
        /// The payloads' bytes.
        var bytes = 0
        var damage: [RecordFrame.BadStretch]
        /// The offset after the last record or stretch consumed.
        var next: Int
    }

    /// Moves the reader past what a read found (records and damage); returns where the chunk started.
    mutating func takeCompleted(_ plan: ReadPlan, chunk: ReadChunk) -> JournalPosition {
        let start = readCursor
        guard let at = index(of: plan.segment), readCursor.segment == plan.segment else { return start }
        for stretch in chunk.damage {
            damage.append(.init(file: Self.fileName(plan.segment), offset: stretch.offset, bytesSkipped: stretch.count,
                                reason: "damaged while the journal was open: \(stretch.reason); moved to \(JournalQuarantine.fileName)"))
        }
        readCursor.offset = chunk.next
        segments[at].readRecords += chunk.payloads.count
        segments[at].readEvents += chunk.events
        takenRecords += chunk.payloads.count
        if readCursor.offset >= segments[at].synced { accountMissing(at) }
        occurred.pass(takenRecords + lostRecords, of: nextRecord)
        return start
    }

    /// Registers the records read since `start` as one batch out for delivery (counted by its events).
    mutating func batchTaken(start: JournalPosition, payloads: [ArraySlice<UInt8>], events: Int, now: Duration) -> JournalBatch {
        inFlight[start] = events
        readableSince = readable > 0 ? now : nil
        return JournalBatch(start: start, payloads: payloads, events: events)
    }

    // MARK: Acknowledging

    /// What an acknowledgement asks of the disk: record the new checkpoint, then delete the segments
    /// wholly before it.
    struct AcknowledgePlan {
        var checkpoint: JournalPosition
        var remove: [UInt64]
    }

    /// Counts `events` of a batch still out as delivered: no longer pending, though the batch stays out
    /// until it is acknowledged (a page's record is sent in several requests; a crash before the
    /// acknowledgement sends them again, and recovery counts them pending again).
    mutating func delivered(_ events: Int, of batch: JournalBatch) {
        guard let count = inFlight[batch.start] else { return }
        let settled = min(max(0, events), count)
        inFlight[batch.start] = count - settled
        pending -= settled
    }

    /// Forgets a delivered (or dead-lettered) batch. The checkpoint becomes the start of the oldest batch
    /// still out, or the reader's place: always a place in a segment that exists.
    mutating func acknowledge(_ batch: JournalBatch) -> AcknowledgePlan? {
        guard let count = inFlight.removeValue(forKey: batch.start) else { return nil }
        pending -= count
        let newCheckpoint = inFlight.keys.min() ?? readCursor
        guard newCheckpoint > checkpoint, index(of: newCheckpoint.segment).map({ segments[$0].exists }) == true else { return nil }
        checkpoint = newCheckpoint
        return AcknowledgePlan(checkpoint: newCheckpoint,
                               remove: segments.filter { $0.number < newCheckpoint.segment }.map(\.number))
    }

    /// The segments of an acknowledgement are deleted.
    mutating func removed(_ numbers: [UInt64]) {
        segments.removeAll { numbers.contains($0.number) }
    }
}

/// The checkpoint file's bytes: segment and offset (8 bytes each, little endian) and a CRC-32 of those 16.
enum CheckpointFile {
    static let name = "checkpoint"

    static func encode(_ position: JournalPosition) -> [UInt8] {
        var bytes = [UInt8]()
        RecordFrame.putUInt64(position.segment, &bytes)
        RecordFrame.putUInt64(UInt64(position.offset), &bytes)
        RecordFrame.putUInt32(CRC32.checksum(bytes), &bytes)
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> JournalPosition? {
        guard bytes.count == 20, CRC32.checksum(bytes[0..<16]) == RecordFrame.readUInt32(bytes, 16) else { return nil }
        let offset = RecordFrame.readUInt64(bytes, 8)
        guard offset <= UInt64(Int.max) else { return nil }
        return JournalPosition(segment: RecordFrame.readUInt64(bytes, 0), offset: Int(offset))
    }
}

/// ``JournalState/occurred``: when records happened, one sample a second, oldest first.
struct OccurredSamples {
    private var samples: [(record: Int, millis: Int64)] = []
    private var head = 0
    /// The last sample's time (kept apart: every append compares with it).
    private var lastMillis: Int64 = 0

    /// A record appended at `record` in the journal's order, that happened at `millis`.
    mutating func note(record: Int, millis: Int64) {
        // Any bytes may be a record (a test's, a requeued letter's): their time is compared without overflow.
        if head < samples.count {
            let (difference, overflow) = millis.subtractingReportingOverflow(lastMillis)
            if !overflow, difference > -1000, difference < 1000 { return }
        }
        samples.append((record, millis))
        lastMillis = millis
    }

    /// The reader has passed the first `passed` of `total` records: samples wholly before them go (a sample
    /// covers the records up to the next one, so the last before them stays while records remain).
    mutating func pass(_ passed: Int, of total: Int) {
        if passed >= total {
            head = samples.count
        } else {
            while head + 1 < samples.count, samples[head + 1].record <= passed { head += 1 }
        }
        if head > 1024, head * 2 > samples.count {
            samples.removeFirst(head)
            head = 0
        }
    }

    /// When the oldest record not yet passed happened, in epoch milliseconds.
    var oldest: Int64? { head < samples.count ? samples[head].millis : nil }
}
