/// The records accepted and not yet written: their payloads end to end in one byte array, each with its
/// serial number. An append copies a record's bytes in (one `memcpy`, no array of its own): the `track`
/// path writes its record into room of its own and hands it over here, under the journal's lock.
///
/// A flush takes every record at once (``records``, slices sharing the array), and the array starts
/// afresh; records whose write failed come back, in serial order, through ``putBack(_:)``.
struct PendingRecords {
    private(set) var bytes: [UInt8] = []
    /// Each record's serial and where its payload ends in ``bytes`` (it starts where the previous ends).
    private var ends: [(serial: Int, end: Int)] = []

    var isEmpty: Bool { ends.isEmpty }
    var count: Int { ends.count }
    /// The serial of the oldest record waiting.
    var firstSerial: Int? { ends.first?.serial }

    /// Every record in order: serial and payload (slices of one array).
    var records: [(serial: Int, payload: ArraySlice<UInt8>)] {
        var start = 0
        return ends.map { entry in
            defer { start = entry.end }
            return (entry.serial, bytes[start..<entry.end])
        }
    }

    /// Appends a record; returns where its payload stands in ``bytes`` (for ``patch(_:at:)``).
    @discardableResult
    mutating func append(serial: Int, _ payload: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: payload)
        ends.append((serial, bytes.count))
        return start..<bytes.count
    }

    /// The payload at `range` (as ``append(serial:_:)`` returned it).
    func payload(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    /// Overwrites 8 bytes of a record already appended with `value`, little endian.
    mutating func patch(_ value: UInt64, at offset: Int) {
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self) }
    }

    /// Forgets every record. A flush that took ``records`` still holds the old bytes, so the next append
    /// starts a new array: of the old one's capacity, up to 1 MiB (not the room of a burst, every flush).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
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
