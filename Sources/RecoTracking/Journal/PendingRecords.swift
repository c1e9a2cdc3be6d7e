/// The records accepted and not yet written, laid out as a segment will hold them: room for the segment's
/// header first, then each record's frame header (room, filled in by ``framed(segment:base:withSegmentHeader:)``)
/// and its payload, in one byte array, each record with its serial number. An append copies a record's
/// bytes in (one `memcpy`, no array of its own): the `track` path writes its record into room of its own
/// and hands it over here, under the journal's lock.
///
/// A flush frames every record in place, where it will stand, and writes that same array (no copy of
/// the payloads into another); its records are slices of it. The buffer then starts afresh; records whose
/// write failed come back, in serial order, through ``putBack(_:)``.
struct PendingRecords {
    private var bytes: [UInt8] = Array(repeating: 0, count: RecordFrame.segmentHeaderSize)
    /// Each record's serial and where its payload ends in ``bytes`` (its frame header starts where the
    /// previous payload ends).
    private var ends: [(serial: Int, end: Int)] = []

    private static let headerRoom = [UInt8](repeating: 0, count: RecordFrame.headerSize)

    var isEmpty: Bool { ends.isEmpty }
    var count: Int { ends.count }
    /// The serial of the oldest record waiting.
    var firstSerial: Int? { ends.first?.serial }
    /// The oldest record's payload.
    var firstPayload: ArraySlice<UInt8>? {
        ends.first.map { bytes[(RecordFrame.segmentHeaderSize + RecordFrame.headerSize)..<$0.end] }
    }
    /// Bytes the records take in a segment: their frame headers and payloads.
    var framedCount: Int { bytes.count - RecordFrame.segmentHeaderSize }

    /// Every record in order: serial and payload (slices of one array).
    var records: [(serial: Int, payload: ArraySlice<UInt8>)] {
        var start = RecordFrame.segmentHeaderSize
        return ends.map { entry in
            defer { start = entry.end }
            return (entry.serial, bytes[(start + RecordFrame.headerSize)..<entry.end])
        }
    }

    /// Appends a record (after room for its frame header); returns where its payload stands in the
    /// buffer (for ``payload(_:)``).
    @discardableResult
    mutating func append(serial: Int, _ payload: some Collection<UInt8>) -> Range<Int> {
        let start = bytes.count + RecordFrame.headerSize
        let end = start + payload.count
        // The header's room is written by `framed`; zeros here keep the array initialized.
        bytes.append(contentsOf: Self.headerRoom)
        bytes.append(contentsOf: payload)
        ends.append((serial, end))
        return start..<end
    }

    /// The payload at `range` (as ``append(serial:_:)`` returned it).
    func payload(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    /// Frames every record for where it will stand: the first at `base` of `segment` (after the segment's
    /// header when `withSegmentHeader`, which the bytes then start with). Returns the bytes to write and the
    /// records (slices of those bytes), and empties the buffer.
    mutating func framed(segment: UInt64, base: Int, withSegmentHeader: Bool) -> (bytes: ArraySlice<UInt8>, records: [(serial: Int, payload: ArraySlice<UInt8>)]) {
        let first = withSegmentHeader ? 0 : RecordFrame.segmentHeaderSize
        // Where byte `index` of the buffer will stand in the segment.
        let shift = base - first
        bytes.withUnsafeMutableBufferPointer { buffer in
            let start = buffer.baseAddress!
            if withSegmentHeader {
                RecordFrame.segmentHeader.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: RecordFrame.segmentHeaderSize) }
            }
            var header = RecordFrame.segmentHeaderSize
            for entry in ends {
                let payload = UnsafeBufferPointer(start: start + header + RecordFrame.headerSize, count: entry.end - header - RecordFrame.headerSize)
                RecordFrame.writeHeader(of: payload, segment: segment, offset: shift + header, to: UnsafeMutableRawPointer(start + header))
                header = entry.end
            }
        }
        let taken = (bytes: bytes[first...], records: records)
        removeAll()
        return taken
    }

    /// Forgets every record. A flush still holds the old bytes, so the next append starts a new array: of
    /// the old one's capacity, up to 1 MiB (not the room of a burst, every flush).
    mutating func removeAll() {
        let capacity = bytes.capacity <= 1 << 20 ? bytes.capacity : 0
        bytes = Array(repeating: 0, count: RecordFrame.segmentHeaderSize)
        bytes.reserveCapacity(capacity)
        ends.removeAll(keepingCapacity: true)
    }

    /// Puts records whose write failed back in front of those waiting, all in serial order.
    mutating func putBack(_ failed: [(serial: Int, payload: ArraySlice<UInt8>)]) {
        let all = (failed + records).sorted { $0.serial < $1.serial }
        var rebuilt = PendingRecords()
        for record in all {
            record.payload.withUnsafeBufferPointer { _ = rebuilt.append(serial: record.serial, $0) }
        }
        self = rebuilt
    }
}
