/// Reads a journal record's fields from its bytes, as ``RecordWriter`` writes them: fixed 8-byte numbers,
/// varints, and string fields as spans into the record (no String made). Offsets count from the record's
/// first byte; every read that would run past the end answers nil (or, for ``fixed(at:)``, traps: its
/// caller checks the record's length first).
struct RecordReader {
    let bytes: ArraySlice<UInt8>
    /// The record's length.
    let count: Int
    /// Where the next field starts.
    var index: Int

    init(_ bytes: ArraySlice<UInt8>, at index: Int) {
        self.bytes = bytes
        self.count = bytes.count
        self.index = index
    }

    /// The byte at `offset` of the record.
    @inline(__always)
    subscript(offset: Int) -> UInt8 { bytes[bytes.startIndex &+ offset] }

    /// The little-endian 8-byte number at `offset` (the caller has checked the record is long enough).
    @inline(__always)
    func fixed(at offset: Int) -> UInt64 {
        // One bounds check for the eight bytes (the slice's), none per byte (its iterator's).
        let start = bytes.startIndex + offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes[start..<(start + 8)] {
            value |= UInt64(byte) << shift
            shift += 8
        }
        return value
    }

    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            let next = self[index]
            index += 1
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// The next string field as an ``EventRecord/Spans`` entry (start << 32 | length + 1; 0 when absent),
    /// nil when its length runs past the end.
    @inline(__always)
    mutating func span() -> UInt64? {
        guard index < count else { return nil }
        var marker = UInt64(self[index])
        if marker < 0x80 {
            index += 1
        } else {
            guard let long = varint() else { return nil }
            marker = long
        }
        if marker == 0 { return 0 }
        guard marker - 1 <= UInt64(count - index), marker < UInt64(UInt32.max) else { return nil }
        let span = UInt64(index) << 32 | marker
        index += Int(marker - 1)
        return span
    }
}
