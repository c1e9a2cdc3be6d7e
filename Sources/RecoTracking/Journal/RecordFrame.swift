/// The on-disk frame of one journal record: a 4-byte little-endian payload length, a 4-byte
/// little-endian CRC-32 of the payload, then the payload.
///
/// A frame whose length runs past the end of the file is a torn write; one whose checksum does not
/// match is corrupt. Recovery keeps every frame before the first bad one and reports the rest.
enum RecordFrame {
    static let headerSize = 8
    /// Larger lengths are treated as corruption rather than attempted.
    static let maximumPayload = 16 * 1024 * 1024

    static func append(_ payload: [UInt8], to output: inout [UInt8]) {
        let length = UInt32(payload.count)
        let crc = CRC32.checksum(payload)
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        output.append(contentsOf: payload)
    }

    /// What a scan of bytes found at one offset.
    enum Scan {
        case record(payload: ArraySlice<UInt8>, next: Int)
        case incomplete
        case corrupt(String)
    }

    static func scan(_ bytes: [UInt8], at offset: Int) -> Scan {
        guard offset + headerSize <= bytes.count else { return .incomplete }
        let length = Int(readUInt32(bytes, offset))
        let crc = readUInt32(bytes, offset + 4)
        guard length <= maximumPayload else { return .corrupt("record length \(length) is impossible") }
        guard offset + headerSize + length <= bytes.count else { return .incomplete }
        let payload = bytes[(offset + headerSize)..<(offset + headerSize + length)]
        guard CRC32.checksum(payload) == crc else { return .corrupt("checksum mismatch") }
        return .record(payload: payload, next: offset + headerSize + length)
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
