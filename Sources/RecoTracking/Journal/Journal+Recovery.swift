import Foundation

extension Journal {
    /// How a journal is opened.
    enum OpenMode {
        /// For a tracker: takes the store exclusively; damage is moved to quarantine and cut off (a torn
        /// tail) or covered with padding (so every other record keeps its place); segments wholly before
        /// the checkpoint are deleted.
        case repair
        /// For inspection: a shared lock, nothing created, written or deleted; damage only reported.
        case readOnly
    }

    /// Opens (or creates) the journal, reads the checkpoint, and scans every segment: records after the
    /// checkpoint are pending; damage is reported, and in ``OpenMode/repair`` quarantined. Recovery
    /// resynchronises after a bad record (it looks for the next valid frame), so only damaged records are
    /// lost, and it never deletes a segment that holds records after a checkpoint it could verify.
    static func open(storage: any JournalStorage, durability: Durability, maxBytes: Int, segmentBytes: Int,
                     mode: OpenMode = .repair) throws(TrackingError) -> (Journal, JournalRecoveryReport) {
        var state = JournalState(durability: durability, maxBytes: maxBytes, segmentBytes: segmentBytes)
        var report = JournalRecoveryReport()
        do {
            try storage.lock(exclusive: mode == .repair)
            try recover(storage, into: &state, report: &report, mode: mode)
        } catch {
            storage.close()
            throw error.trackingError
        }
        return (Journal(storage: storage, state: state), report)
    }

    /// One segment as found on disk.
    private struct FoundSegment {
        var number: UInt64
        var bytes: [UInt8]
        var format: RecordFrame.Format
        var headerDamaged: Bool
        var recordOffsets: [Int]
        /// The events of each record (one, or a page's impressions), in the order of `recordOffsets`.
        var recordEvents: [Int]
        /// Where padding records stand (damage covered by an earlier repair): boundaries, not events.
        var paddingOffsets: [Int]
        var stretches: [RecordFrame.BadStretch]
        /// Where the records end once the damage is dealt with (a tail of damage is cut off).
        var validEnd: Int {
            if let last = stretches.last, last.atEnd { return last.offset }
            return bytes.count
        }
    }

    private static func recover(_ storage: any JournalStorage, into state: inout JournalState, report: inout JournalRecoveryReport,
                                mode: OpenMode) throws(JournalStorageError) {
        let names = storage.exists() ? try storage.list() : []
        var found: [FoundSegment] = []
        for number in names.compactMap(JournalState.segmentNumber).sorted() {
            let name = JournalState.fileName(number)
            let bytes = try storage.read(name, offset: 0, count: try storage.size(name) ?? 0)
            let (format, start, headerDamaged) = RecordFrame.format(of: bytes, segment: number)
            var offsets: [Int] = []
            var events: [Int] = []
            var paddings: [Int] = []
            var stretches = RecordFrame.scan(bytes, segment: number, from: start, format: format,
                                             padding: { paddings.append($0) }) { offset, payload in
                offsets.append(offset)
                events.append(PageRecordCodec.eventCount(of: payload))
            }
            if headerDamaged { stretches.insert(.init(offset: 0, count: start, reason: "segment header damaged", atEnd: false), at: 0) }
            found.append(FoundSegment(number: number, bytes: bytes, format: format, headerDamaged: headerDamaged,
                                      recordOffsets: offsets, recordEvents: events, paddingOffsets: paddings, stretches: stretches))
        }
        let start = checkpoint(storage, found: found, report: &report)
        for segment in found {
            for stretch in segment.stretches {
                let torn = stretch.atEnd && stretch.reason == "a record runs past the end"
                report.damage.append(.init(file: JournalState.fileName(segment.number), offset: stretch.offset, bytesSkipped: stretch.count,
                                           reason: torn ? "torn record (an interrupted write)" : "corrupt record: \(stretch.reason)"))
            }
        }
        if mode == .repair {
            // The checkpoint is written anew first when recovery could not use it as it was, so it never
            // names a place that the repair below cuts off.
            if let saved = try? storage.read(CheckpointFile.name, offset: 0, count: 20), CheckpointFile.decode(saved) != start,
               !saved.isEmpty {
                try storage.replace(CheckpointFile.name, with: CheckpointFile.encode(start), durable: true)
            }
            // What a killed process wrote is in the system's cache, not yet on disk: sync it, so that what
            // recovery counts pending is durable from here on.
            for segment in found where segment.stretches.isEmpty { try storage.sync(JournalState.fileName(segment.number)) }
            for segment in found where !segment.stretches.isEmpty { try repair(segment, storage: storage) }
            for segment in found where segment.number < start.segment { try storage.remove(JournalState.fileName(segment.number)) }
        }
        // Pending counts events: a page's record counts its impressions.
        var pending = 0
        for segment in found where segment.number >= start.segment {
            let before = segment.number == start.segment ? segment.recordOffsets.filter { $0 < start.offset }.count : 0
            let eventsBefore = segment.recordEvents.prefix(before).reduce(0, +)
            var entry = JournalState.Segment(number: segment.number)
            entry.format = segment.format
            entry.size = segment.validEnd
            entry.synced = segment.validEnd
            entry.records = segment.recordOffsets.count
            entry.syncedRecords = segment.recordOffsets.count
            entry.readRecords = before
            entry.events = segment.recordEvents.reduce(0, +)
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
        if pending > 0 { state.readableSince = .now - .seconds(3600) }
        report.segments = found.count
        report.pendingEvents = pending
    }

    /// Where delivery starts: the checkpoint if it names a record boundary (or the end) of a segment that
    /// exists, or the start of the segment that comes next when every existing one is before it;
    /// otherwise the oldest segment's start (duplicates, never loss), with a note saying why.
    private static func checkpoint(_ storage: any JournalStorage, found: [FoundSegment],
                                   report: inout JournalRecoveryReport) -> JournalPosition {
        let oldest = JournalPosition(segment: found.first?.number ?? 1, offset: 0)
        guard let size = try? storage.size(CheckpointFile.name), size > 0 else { return oldest }
        guard let bytes = try? storage.read(CheckpointFile.name, offset: 0, count: 20), let saved = CheckpointFile.decode(bytes) else {
            report.checkpointNote = "the delivery checkpoint was unreadable; delivery restarts at the oldest segment (duplicates possible)"
            return oldest
        }
        let restart = "; delivery restarts at the oldest segment (duplicates possible)"
        guard let segment = found.first(where: { $0.number == saved.segment }) else {
            if found.isEmpty || saved.segment == found.last!.number + 1, saved.offset <= RecordFrame.segmentHeaderSize {
                return JournalPosition(segment: saved.segment, offset: 0)
            }
            if saved.segment < oldest.segment {
                report.checkpointNote = "the delivery checkpoint names segment \(saved.segment), already deleted" + restart
            } else {
                report.checkpointNote = "the delivery checkpoint names segment \(saved.segment) offset \(saved.offset), which the journal does not hold" + restart
            }
            return oldest
        }
        // Past a damaged tail that repair cuts off: the checkpoint says all before it was delivered.
        if saved.offset > segment.validEnd, saved.offset <= segment.bytes.count, segment.stretches.last?.atEnd == true {
            return JournalPosition(segment: saved.segment, offset: segment.validEnd)
        }
        let boundaries = Set(segment.recordOffsets + segment.paddingOffsets + [segment.validEnd, segment.format == .version2 ? RecordFrame.segmentHeaderSize : 0, 0]
                             + segment.stretches.flatMap { [$0.offset, $0.offset + $0.count] })
        guard saved.offset <= segment.bytes.count, boundaries.contains(saved.offset) else {
            report.checkpointNote = "the delivery checkpoint names offset \(saved.offset) of \(JournalState.fileName(saved.segment)), "
                + "which is not the start of a record" + restart
            return oldest
        }
        return saved
    }

    /// Moves a segment's damaged stretches to quarantine, then rewrites it at once without them: a damaged
    /// tail is cut off, a stretch inside is covered with a padding record of the same length (every other
    /// record keeps its offset, so the checkpoint stays right), a damaged header is written anew.
    private static func repair(_ segment: FoundSegment, storage: any JournalStorage) throws(JournalStorageError) {
        let name = JournalState.fileName(segment.number)
        var entries = [UInt8]()
        for stretch in segment.stretches {
            entries += JournalQuarantine.entry(file: name, offset: stretch.offset, bytes: segment.bytes[stretch.offset..<(stretch.offset + stretch.count)],
                                               reason: stretch.reason, at: Date())
        }
        do { try JournalQuarantine.add(entries, to: storage) } catch {
            throw JournalStorageError(kind: .failed, description: "cannot quarantine damage of \(name): \(error)")
        }
        var bytes = Array(segment.bytes[..<segment.validEnd])
        if segment.headerDamaged { bytes.replaceSubrange(0..<RecordFrame.segmentHeaderSize, with: RecordFrame.segmentHeader) }
        let minimum = (segment.format == .version2 ? RecordFrame.headerSize : RecordFrame.legacyHeaderSize) + 1
        for stretch in segment.stretches where !stretch.atEnd && stretch.count >= minimum && !(segment.headerDamaged && stretch.offset == 0) {
            bytes.replaceSubrange(stretch.offset..<(stretch.offset + stretch.count),
                                  with: RecordFrame.padding(count: stretch.count, segment: segment.number, offset: stretch.offset, format: segment.format))
        }
        try storage.replace(name, with: bytes, durable: true)
    }
}
