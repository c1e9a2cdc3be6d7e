/// Reads a journal record's fields through a pointer, as ``RecordWriter`` writes them: fixed 8-byte numbers,
/// varints, and string fields as spans into the record (no String made). Every read that would run past
/// the end answers nil.
struct RecordReader {
    let buffer: UnsafeBufferPointer<UInt8>
    /// Where the next field starts.
    var index: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) {
        self.buffer = buffer
        self.index = index
    }

    /// The little-endian 8-byte number at `offset` (the caller has checked the record is long enough).
    func fixed(at offset: Int) -> UInt64 {
        UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(as: UInt64.self).littleEndian
    }

    mutating func varint() -> UInt64? {
        // One byte (every length marker under 128: most fields): no loop.
        if index < buffer.count, buffer[index] < 0x80 {
            index += 1
            return UInt64(buffer[index - 1])
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < buffer.count {
            let next = buffer[index]
            index += 1
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// The next string field as an ``EventRecord/Spans`` entry (start << 32 | length + 1; 0 when absent),
    /// nil when its length runs past the end. A one-byte length marker (every field under 127 bytes) is
    /// read through the pointer with no second bounds check; longer ones go through ``varint()``.
    @inline(__always)
    mutating func span() -> UInt64? {
        let count = buffer.count
        guard index < count else { return nil }
        var marker = UInt64(buffer.baseAddress.unsafelyUnwrapped[index])
        if marker < 0x80 {
            index &+= 1
        } else {
            guard let long = varint() else { return nil }
            marker = long
        }
        if marker == 0 { return 0 }
        guard marker &- 1 <= UInt64(truncatingIfNeeded: count &- index), marker < UInt64(UInt32.max) else { return nil }
        let span = UInt64(truncatingIfNeeded: index) << 32 | marker
        index &+= Int(truncatingIfNeeded: marker &- 1)
        return span
    }
}
