import Foundation

extension Journal {
    /// How a journal is opened.
    enum OpenMode {
        /// For a tracker: takes the store exclusively; damage is moved to quarantine and a damaged segment
        /// written anew without it (see `rewrite`); segments wholly before the checkpoint are deleted.
        case repair
        /// For inspection: a shared lock, nothing created, written or deleted; damage only reported.
        case readOnly
    }

    /// Opens (or creates) the journal, reads the checkpoint, and scans every segment: records after the
    /// checkpoint are pending; damage is reported, and in ``OpenMode/repair`` quarantined. Recovery
    /// resynchronises after a bad record (it looks for the next valid frame), so only damaged records are
    /// lost, and it never deletes a segment that holds records after a checkpoint it could verify.
    static func open(storage: any JournalStorage, durability: Durability, maxBytes: Int, segmentBytes: Int,
                     mode: OpenMode = .repair, clock: any TrackingClock = SystemTrackingClock()) throws(TrackingError) -> (Journal, JournalRecoveryReport) {
        var state = JournalState(durability: durability, maxBytes: maxBytes, segmentBytes: segmentBytes)
        var report = JournalRecoveryReport()
        do {
            try storage.lock(exclusive: mode == .repair)
            try recover(storage, into: &state, report: &report, mode: mode, now: clock.continuousTime())
        } catch {
            storage.close()
            throw error.trackingError
        }
        return (Journal(storage: storage, state: state, clock: clock), report)
    }

    /// One record of a segment as found on disk.
    private struct FoundRecord {
        var offset: Int
        /// Where its payload lies in the segment's bytes.
        var payload: Range<Int>
        /// Its events: one, or a page's impressions.
        var events: Int
    }

    /// One segment as found on disk: what recovery needs of it. Segments are read one at a time, and a
    /// segment's bytes and records are kept only when it holds damage (to quarantine the damage and write
    /// the segment anew): a journal of hundreds of megabytes opens in about one segment's memory.
    private struct FoundSegment {
        var number: UInt64
        var format: RecordFrame.Format
        /// The file's size.
        var size: Int
        /// How many records it holds, and their events.
        var recordCount: Int
        var events: Int
        var stretches: [RecordFrame.BadStretch]
        /// Its bytes and records: only when it holds damage (`stretches`), empty otherwise.
        var bytes: [UInt8] = []
        var records: [FoundRecord] = []
        /// In the segment the saved checkpoint names: whether the checkpoint's offset is a record boundary,
        /// and the records and events before it.
        var checkpoint: (isBoundary: Bool, records: Int, events: Int)?
        /// Where the records end once the damage is dealt with (a tail of damage is cut off).
        var validEnd: Int {
            if let last = stretches.last, last.atEnd { return last.offset }
            return size
        }

        /// The records and events before `offset`, which is 0, the saved checkpoint's offset or `validEnd`.
        func before(_ offset: Int, saved: JournalPosition?) -> (records: Int, events: Int) {
            if offset == 0 { return (0, 0) }
            if let checkpoint, saved?.segment == number, saved?.offset == offset { return (checkpoint.records, checkpoint.events) }
            return (recordCount, events)
        }
    }

    /// Reads segment `number` and finds its records and damage; keeps its bytes and records only when it is
    /// damaged. `saved` is the checkpoint as saved: in its segment, where it stands is noted.
    private static func scan(_ storage: any JournalStorage, segment number: UInt64, saved: JournalPosition?) throws(JournalStorageError) -> FoundSegment {
        let name = JournalState.fileName(number)
        let bytes = try storage.read(name, offset: 0, count: try storage.size(name) ?? 0)
        let (format, start, headerDamaged) = RecordFrame.format(of: bytes, segment: number)
        var records: [FoundRecord] = []
        var paddings: [Int] = []
        var stretches = RecordFrame.scan(bytes, segment: number, from: start, format: format, padding: { paddings.append($0) }) { offset, payload in
            records.append(FoundRecord(offset: offset, payload: payload.indices, events: PageRecordCodec.eventCount(of: payload)))
        }
        if headerDamaged { stretches.insert(.init(offset: 0, count: start, reason: "segment header damaged", atEnd: false), at: 0) }
        var segment = FoundSegment(number: number, format: format, size: bytes.count, recordCount: records.count,
                                   events: records.reduce(0) { $0 + $1.events }, stretches: stretches)
        if let saved, saved.segment == number {
            // Records come in the order of their offsets.
            let before = records.prefix { $0.offset < saved.offset }
            let boundaries = records.map(\.offset) + paddings + [segment.validEnd, format == .version2 ? RecordFrame.segmentHeaderSize : 0, 0]
                + stretches.flatMap { [$0.offset, $0.offset + $0.count] }
            segment.checkpoint = (boundaries.contains(saved.offset), before.count, before.reduce(0) { $0 + $1.events })
        }
        if !stretches.isEmpty {
            segment.bytes = bytes
            segment.records = records
        }
        return segment
    }

    private static func recover(_ storage: any JournalStorage, into state: inout JournalState, report: inout JournalRecoveryReport,
                                mode: OpenMode, now: Duration) throws(JournalStorageError) {
        let names = storage.exists() ? try storage.list() : []
        let saved = savedCheckpoint(storage)
        var found: [FoundSegment] = []
        for number in names.compactMap(JournalState.segmentNumber).sorted() {
            found.append(try scan(storage, segment: number, saved: saved.position))
        }
        var start = checkpoint(saved, found: found, report: &report)
        // Segments are numbered one after another and none at or after the checkpoint's is deleted, so one
        // missing between two that exist took its events with it (a file deleted by hand, or lost by the
        // file system): reported, never silently.
        let missing = zip(found, found.dropFirst()).flatMap { older, newer in
            (older.number + 1)..<newer.number
        }.filter { $0 >= start.segment }
        var missingReported = 0
        for segment in found {
            while missingReported < missing.count, missing[missingReported] < segment.number {
                report.damage.append(.init(file: JournalState.fileName(missing[missingReported]), offset: 0, bytesSkipped: 0, reason: Self.missingSegment))
                missingReported += 1
            }
            for stretch in segment.stretches {
                let torn = RecordFrame.isCutShortAppend(stretch, in: segment.bytes, segment: segment.number, format: segment.format)
                report.damage.append(.init(file: JournalState.fileName(segment.number), offset: stretch.offset, bytesSkipped: stretch.count,
                                           reason: torn ? JournalRecoveryReport.Damage.interruptedWrite : "corrupt record: \(stretch.reason)"))
            }
        }
        if mode == .repair {
            // A damaged segment is written anew with only the records still to deliver: in the checkpoint's
            // segment, those from the checkpoint on, so that the checkpoint moves to the segment's start.
            var keptFrom = 0
            if start.offset > 0, found.contains(where: { $0.number == start.segment && !$0.stretches.isEmpty }) {
                keptFrom = start.offset
                start.offset = 0
            }
            // The checkpoint is written first (and whenever recovery could not use it as it was), so that
            // it never names a place the rewrite cuts off or moves: with the old segment, its start is
            // earlier than the old checkpoint (duplicates if the process dies before the rewrite, never loss).
            // As read at the start of recovery (nothing has written it since); one that holds no checkpoint
            // or that the disk could not read is written anew as well: `start` is always a safe checkpoint.
            if keptFrom > 0 || saved.unreadable || (saved.position.map { $0 != start } ?? false) {
                try storage.replace(CheckpointFile.name, with: CheckpointFile.encode(start), durable: true)
            }
            // What a killed process wrote is in the system's cache, not yet on disk: sync it, so that what
            // recovery counts pending is durable from here on.
            for segment in found where segment.stretches.isEmpty { try storage.sync(JournalState.fileName(segment.number)) }
            for index in found.indices where !found[index].stretches.isEmpty {
                try quarantine(found[index], storage: storage)
                guard found[index].number >= start.segment else { continue }  // deleted below
                found[index] = try rewrite(found[index], keepingFrom: found[index].number == start.segment ? keptFrom : 0, storage: storage)
            }
            // A missing segment is noted in quarantine and stands again as a segment with no records, so
            // that the next open does not report it again.
            for number in missing {
                let empty = FoundSegment(number: number, format: .version2, size: 0, recordCount: 0, events: 0,
                                         stretches: [.init(offset: 0, count: 0, reason: missingSegment, atEnd: false)])
                try quarantine(empty, storage: storage)
                found.append(try rewrite(empty, keepingFrom: 0, storage: storage))
            }
            found.sort { $0.number < $1.number }
            for segment in found where segment.number < start.segment { try storage.remove(JournalState.fileName(segment.number)) }
            // What a replacement interrupted by a crash left (`NAME.new`, written before it is renamed to NAME).
            for name in names where name.hasSuffix(".new") { try storage.remove(name) }
        }
        // Pending counts events: a page's record counts its impressions.
        var pending = 0
        for segment in found where segment.number >= start.segment {
            let (before, eventsBefore) = segment.number == start.segment ? segment.before(start.offset, saved: saved.position) : (0, 0)
            var entry = JournalState.Segment(number: segment.number)
            entry.format = segment.format
            entry.size = segment.validEnd
            entry.synced = segment.validEnd
            entry.records = segment.recordCount
            entry.syncedRecords = segment.recordCount
            entry.readRecords = before
            entry.events = segment.events
            entry.syncedEvents = entry.events
            entry.readEvents = eventsBefore
            entry.exists = true
            entry.sealed = true
            state.segments.append(entry)
            state.durableRecords += entry.records
            state.takenRecords += before
            pending += entry.events - eventsBefore
        }
        // Appends go to a new segment after every one that exists and after the checkpoint's.
        let next = max(found.last?.number ?? 0, start.segment == 0 ? 0 : start.segment - 1) + 1
        state.segments.append(JournalState.Segment(number: next))
        let position = found.contains { $0.number == start.segment } ? start : JournalPosition(segment: next, offset: 0)
        state.checkpoint = position
        state.readCursor = position
        state.pending = pending
        state.nextRecord = state.durableRecords
        if pending > 0 { state.readableSince = now - .seconds(3600) }
        report.segments = found.count
        report.pendingEvents = pending
    }

    /// Where delivery starts: the checkpoint if it names a record boundary (or the end) of a segment that
    /// exists, or the start of the segment that comes next when every existing one is before it;
    /// otherwise the oldest segment's start (duplicates, never loss), with a note saying why.
    private static func checkpoint(_ saved: SavedCheckpoint, found: [FoundSegment],
                                   report: inout JournalRecoveryReport) -> JournalPosition {
        let oldest = JournalPosition(segment: found.first?.number ?? 1, offset: 0)
        if let diskError = saved.diskError {
            report.diskError = diskError
            report.checkpointNote = "the delivery checkpoint could not be read (\(diskError)); delivery restarts at the oldest segment (duplicates possible)"
            return oldest
        }
        if saved.unreadable {
            report.checkpointNote = "the delivery checkpoint was unreadable; delivery restarts at the oldest segment (duplicates possible)"
            return oldest
        }
        guard let saved = saved.position else { return oldest }
        let restart = "; delivery restarts at the oldest segment (duplicates possible)"
        guard let segment = found.first(where: { $0.number == saved.segment }) else {
            if found.isEmpty || saved.segment == found.last!.number + 1, saved.offset <= RecordFrame.segmentHeaderSize {
                return JournalPosition(segment: saved.segment, offset: 0)
            }
            if saved.segment < oldest.segment {
                // Not a loss: an acknowledgement writes the checkpoint without `fsync` and then deletes the
                // segments before it, so after a power loss the deletions may stand and the checkpoint be the
                // one before (the journal simulation's false-alarm check found this when such a checkpoint
                // was taken for missing segments).
                report.checkpointNote = "the delivery checkpoint names segment \(saved.segment), already deleted" + restart
            } else {
                report.checkpointNote = "the delivery checkpoint names segment \(saved.segment) offset \(saved.offset), which the journal does not hold" + restart
            }
            return oldest
        }
        // Past a damaged tail that repair cuts off: the checkpoint says all before it was delivered.
        if saved.offset > segment.validEnd, saved.offset <= segment.size, segment.stretches.last?.atEnd == true {
            return JournalPosition(segment: saved.segment, offset: segment.validEnd)
        }
        guard saved.offset <= segment.size, segment.checkpoint?.isBoundary == true else {
            report.checkpointNote = "the delivery checkpoint names offset \(saved.offset) of \(JournalState.fileName(saved.segment)), "
                + "which is not the start of a record" + restart
            return oldest
        }
        return saved
    }

    /// The checkpoint as saved: none when there is no checkpoint file or it is empty; `unreadable` when it
    /// holds something that is no checkpoint; `diskError` (the system's words) when it could not be read.
    private struct SavedCheckpoint {
        var position: JournalPosition?
        var unreadable = false
        var diskError: String?
    }

    private static func savedCheckpoint(_ storage: any JournalStorage) -> SavedCheckpoint {
        do {
            guard let size = try storage.size(CheckpointFile.name), size > 0 else { return SavedCheckpoint() }
            guard let saved = CheckpointFile.decode(try storage.read(CheckpointFile.name, offset: 0, count: 20)) else {
                return SavedCheckpoint(unreadable: true)
            }
            return SavedCheckpoint(position: saved)
        } catch {
            // Delivery can restart at the oldest segment (duplicates, never loss), but the disk failed a read.
            return SavedCheckpoint(unreadable: true, diskError: "\(error)")
        }
    }

    static let missingSegment = "the segment file is missing, and the events it held with it"

    /// Copies a segment's damaged stretches to quarantine, with the file, offset and reason.
    private static func quarantine(_ segment: FoundSegment, storage: any JournalStorage) throws(JournalStorageError) {
        let name = JournalState.fileName(segment.number)
        let entries = segment.stretches.map { stretch in
            JournalQuarantine.Entry(file: name, offset: stretch.offset, bytes: segment.bytes[stretch.offset..<(stretch.offset + stretch.count)],
                                    reason: stretch.reason)
        }
        do { try JournalQuarantine.add(entries, to: storage) } catch {
            throw JournalStorageError(kind: .failed, description: "cannot quarantine damage of \(name): \(error)")
        }
    }

    /// Writes a damaged segment anew, at once, in the current format: its header, then each of its records
    /// from `offset` on, framed for its new place. Damage of any length and place (a torn tail, a stretch
    /// inside, a header, a few bytes between two records) is gone, and so are padding records; the segment
    /// as it is now found is returned.
    private static func rewrite(_ segment: FoundSegment, keepingFrom offset: Int,
                                storage: any JournalStorage) throws(JournalStorageError) -> FoundSegment {
        var bytes = RecordFrame.segmentHeader
        var records: [FoundRecord] = []
        for record in segment.records where record.offset >= offset {
            let payload = Array(segment.bytes[record.payload])
            let start = bytes.count
            RecordFrame.append(payload, segment: segment.number, offset: start, to: &bytes)
            records.append(FoundRecord(offset: start, payload: (bytes.count - payload.count)..<bytes.count, events: record.events))
        }
        try storage.replace(JournalState.fileName(segment.number), with: bytes, durable: true)
        // Written anew without damage: its bytes are not kept (see `FoundSegment`).
        return FoundSegment(number: segment.number, format: .version2, size: bytes.count, recordCount: records.count,
                            events: records.reduce(0) { $0 + $1.events }, stretches: [])
    }
}
