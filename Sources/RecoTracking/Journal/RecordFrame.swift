#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk form of journal records, versioned.
///
/// **Version 2** (written since the journal's storage seam): a segment starts with a 16-byte header,
/// `RKJOURNL`, the format version (4 bytes, little endian) and a CRC-32 of those 12 bytes. Each record
/// is a 12-byte frame header and its payload:
///
/// | bytes | what |
/// |---|---|
/// | 0–1 | `R` `K`, the frame mark |
/// | 2 | 2, the frame version |
/// | 3 | the low byte of the CRC-32 of (segment number, offset, length): a cheap check of the header |
/// | 4–7 | payload length, little endian |
/// | 8–11 | CRC-32 of (segment number as 8 bytes, offset as 8 bytes, length as 4 bytes, payload) |
///
/// The checksum covers where the record stands, so a frame is valid only at its own place: after
/// damage, a scan that looks for the next valid frame (``scan(_:segment:from:format:)``) cannot take
/// bytes inside another record's payload, or a copy from elsewhere, for a record.
///
/// **Version 1** (journals written before): no segment header; a frame is the payload length and the
/// CRC-32 of the payload (4 bytes each, little endian). Such segments are still read.
enum RecordFrame {
    enum Format: Sendable, Equatable { case version1, version2 }

    static let segmentMagic: [UInt8] = Array("RKJOURNL".utf8)
    static let segmentHeaderSize = 16
    static let formatVersion: UInt32 = 2
    static let headerSize = 12
    static let legacyHeaderSize = 8
    /// Larger lengths are damage, not records (an event is a few hundred bytes).
    static let maximumPayload = 4 * 1024 * 1024

    /// The 16 bytes a version-2 segment starts with.
    static var segmentHeader: [UInt8] {
        var bytes = segmentMagic
        putUInt32(formatVersion, &bytes)
        putUInt32(CRC32.checksum(bytes), &bytes)
        return bytes
    }

    /// Appends the frame of `payload`, to stand at `offset` of `segment`, to `output`.
    static func append(_ payload: [UInt8], segment: UInt64, offset: Int, to output: inout [UInt8]) {
        var header = (UInt64(0), UInt32(0))
        payload.withUnsafeBufferPointer { payload in
            withUnsafeMutableBytes(of: &header) { writeHeader(of: payload, segment: segment, offset: offset, to: $0.baseAddress!) }
        }
        withUnsafeBytes(of: header) { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<headerSize])) }
        output.append(contentsOf: payload)
    }

    /// Writes the 12-byte frame header of `payload`, to stand at `offset` of `segment`, at `header`: mark,
    /// frame version and place check, then length, then checksum (little endian).
    static func writeHeader(of payload: UnsafeBufferPointer<UInt8>, segment: UInt64, offset: Int, to header: UnsafeMutableRawPointer) {
        let length = UInt32(payload.count)
        let place = placeChecksum(segment: segment, offset: offset, length: length)
        let crc = CRC32.checksum(payload, continuing: place)
        let markAndLength = UInt64(0x52) | UInt64(0x4B) << 8 | UInt64(2) << 16 | UInt64(place & 0xFF) << 24 | UInt64(length) << 32
        header.storeBytes(of: markAndLength.littleEndian, as: UInt64.self)
        header.storeBytes(of: crc.littleEndian, toByteOffset: 8, as: UInt32.self)
    }

    /// A version-1 frame, as journals wrote before version 2 (for tests that make old journals).
    static func appendLegacy(_ payload: [UInt8], to output: inout [UInt8]) {
        putUInt32(UInt32(payload.count), &output)
        putUInt32(CRC32.checksum(payload), &output)
        output.append(contentsOf: payload)
    }

    /// The format of a segment and the offset of its first record: version 2 when it has the header, or
    /// (the header damaged) nearly its mark or any valid version-2 frame; version 1 otherwise. A version-1
    /// segment cannot hold a valid version-2 frame by chance: the frame's checksum covers its place.
    static func format(of bytes: [UInt8], segment: UInt64) -> (format: Format, start: Int, headerDamaged: Bool) {
        if bytes.count >= segmentHeaderSize, bytes[0..<12].elementsEqual(segmentHeader[0..<12]),
           readUInt32(bytes, 12) == CRC32.checksum(bytes[0..<12]) {
            return (.version2, segmentHeaderSize, false)
        }
        // A header cut short as the segment was created: a segment with no records.
        if bytes.count < segmentHeaderSize, !bytes.isEmpty, segmentHeader.starts(with: bytes) { return (.version2, bytes.count, false) }
        guard bytes.count >= segmentHeaderSize else { return (.version1, 0, false) }
        let markDifferences = zip(bytes[0..<8], segmentMagic).filter { $0 != $1 }.count
        if markDifferences <= 2 { return (.version2, segmentHeaderSize, true) }
        var offset = segmentHeaderSize
        var checksums: StretchChecksums?  // made at the first marked offset (see `scan`)
        while offset + headerSize < bytes.count {
            if bytes[offset] == 0x52, bytes[offset + 1] == 0x4B, bytes[offset + 2] == 2 {
                if checksums == nil { checksums = StretchChecksums(bytes) }
                if case .record = frame(in: bytes, at: offset, segment: segment, format: .version2, checksums: checksums) {
                    return (.version2, segmentHeaderSize, true)
                }
            }
            offset += 1
        }
        return (.version1, 0, false)
    }

    /// What is at one offset.
    enum Frame: Equatable {
        case record(payload: ArraySlice<UInt8>, next: Int)
        /// A frame whose header is plausible but runs past the end of the bytes.
        case incomplete
        case invalid(Problem)
    }

    /// Why the bytes at an offset are no record. A value, not text: a scan over a damaged stretch asks at
    /// every byte, and text is made only for the one problem a stretch reports.
    enum Problem: Equatable, CustomStringConvertible {
        case noMark, headerCheckMismatch, impossibleLength(UInt32), checksumMismatch

        var description: String {
            switch self {
            case .noMark: "no record mark"
            case .headerCheckMismatch: "record header check mismatch"
            case .impossibleLength(let length): "record length \(length) is impossible"
            case .checksumMismatch: "checksum mismatch"
            }
        }
    }

    /// The frame at `offset` of `bytes`, whose first byte stands at `base` in the segment. `checksums`, when
    /// given, are those of `bytes`: the payload's checksum is then taken from them, in time independent of
    /// its length (what a scan over damage needs, see `scan`).
    static func frame(in bytes: [UInt8], at offset: Int, base: Int = 0, segment: UInt64, format: Format,
                      checksums: StretchChecksums? = nil) -> Frame {
        switch format {
        case .version2:
            guard offset + headerSize <= bytes.count else {
                return bytes.count - offset >= 2 && (bytes[offset] != 0x52 || bytes[offset + 1] != 0x4B)
                    ? .invalid(.noMark) : .incomplete
            }
            // Read through one pointer (the header's fields loaded whole, the checksum taken over the
            // buffer), not by bounds-checked subscripts and a slice per step: every record read back.
            return bytes.withUnsafeBufferPointer { buffer -> Frame in
                let header = UnsafeRawPointer(buffer.baseAddress! + offset)
                let markAndLength = UInt64(littleEndian: header.loadUnaligned(as: UInt64.self))
                guard markAndLength & 0xFF_FFFF == 0x02_4B52 else { return .invalid(.noMark) }
                let length = UInt32(truncatingIfNeeded: markAndLength >> 32)
                let place = placeChecksum(segment: segment, offset: base + offset, length: length)
                guard UInt8(truncatingIfNeeded: markAndLength >> 24) == UInt8(truncatingIfNeeded: place) else { return .invalid(.headerCheckMismatch) }
                guard length > 0, Int(length) <= maximumPayload else { return .invalid(.impossibleLength(length)) }
                let end = offset + headerSize + Int(length)
                guard end <= buffer.count else { return .incomplete }
                let payload = (offset + headerSize)..<end
                let checksum = checksums.map { CRC32.shift(place, byBytes: payload.count) ^ $0.checksum(of: payload) }
                    ?? CRC32.checksum(UnsafeBufferPointer(rebasing: buffer[payload]), continuing: place)
                guard checksum == UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) else {
                    return .invalid(.checksumMismatch)
                }
                return .record(payload: bytes[payload], next: end)
            }
        case .version1:
            guard offset + legacyHeaderSize <= bytes.count else { return .incomplete }
            let length = Int(readUInt32(bytes, offset))
            guard length > 0, length <= maximumPayload else { return .invalid(.impossibleLength(UInt32(length))) }
            let end = offset + legacyHeaderSize + length
            guard end <= bytes.count else { return .incomplete }
            let payload = bytes[(offset + legacyHeaderSize)..<end]
            let checksum = checksums?.checksum(of: payload.indices) ?? CRC32.checksum(payload)
            guard checksum == readUInt32(bytes, offset + 4) else { return .invalid(.checksumMismatch) }
            return .record(payload: payload, next: end)
        }
    }

    /// A stretch of bytes that holds no valid record.
    struct BadStretch: Sendable, Equatable {
        var offset: Int
        var count: Int
        var reason: String
        /// Whether it runs to the end of the bytes scanned (an interrupted write, or damage there).
        var atEnd: Bool
    }

    /// Every record from `from` on, and every stretch between them that holds none: after a bad frame
    /// the scan moves on byte by byte to the next valid frame (resynchronisation), so damage costs only
    /// the records it touched.
    ///
    /// `bytes` start at `base` in the segment; offsets given to `record` and in the stretches are the
    /// segment's. Padding records (a payload whose first byte is 0, written where an earlier version's
    /// repair covered damage) are skipped; `padding`, when given, is told where each one stands (a record
    /// boundary all the same: a checkpoint may name it).
    static func scan(_ bytes: [UInt8], base: Int = 0, segment: UInt64, from: Int, format: Format,
                     padding: ((_ offset: Int) -> Void)? = nil,
                     record: (_ offset: Int, _ payload: ArraySlice<UInt8>) -> Void) -> [BadStretch] {
        var stretches: [BadStretch] = []
        var index = from - base
        // Version 1 frames have no mark, so damage offers a possible length at about one offset in 1,024,
        // each a checksum of up to 4 MiB; a version-2 frame's mark and header check are cheap to forge in
        // hostile bytes, at every few offsets. From the first bad frame on, checksums come from prefix sums.
        var checksums: StretchChecksums?
        while index < bytes.count {
            let found = frame(in: bytes, at: index, base: base, segment: segment, format: format, checksums: checksums)
            if case .record(let payload, let next) = found {
                if payload.first != paddingMark { record(base + index, payload) } else { padding?(base + index) }
                index = next
                continue
            }
            var reason = "a record runs past the end"
            if case .invalid(let problem) = found { reason = problem.description }
            if checksums == nil { checksums = StretchChecksums(bytes) }
            var next = index + 1
            while next < bytes.count {
                // A version-2 frame begins with its mark's "R": at no other offset can one stand, so the scan
                // goes from one "R" to the next (`memchr`), where it asked at every byte. The same records
                // are found; a tail of zeros a file system left, or a disk's garbage, of 300 MB took a
                // minute to cross.
                if format == .version2 {
                    next = nextPossibleMark(in: bytes, from: next)
                    if next >= bytes.count { break }
                }
                if case .record = frame(in: bytes, at: next, base: base, segment: segment, format: format, checksums: checksums) { break }
                next += 1
            }
            stretches.append(BadStretch(offset: base + index, count: next - index, reason: reason, atEnd: next >= bytes.count))
            index = next
        }
        return stretches
    }

    /// The first offset from `start` on where `bytes` holds the first byte of a version-2 frame's mark
    /// (`R`), or `bytes.count`.
    private static func nextPossibleMark(in bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return bytes.count }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let found = memchr(buffer.baseAddress! + start, 0x52, buffer.count - start) else { return buffer.count }
            return UnsafeRawPointer(found) - UnsafeRawPointer(buffer.baseAddress!)
        }
    }

    /// Whether `stretch`, of the segment whose bytes are `bytes`, is what an append cut short by a crash or
    /// a power loss leaves at the end of a segment: the beginning of one frame where the file ends, or
    /// zeros where the file system had grown the file for the append but never wrote its blocks (ext4 with
    /// delayed allocation and XFS leave such tails): zeros from where the stretch begins (the last durable
    /// record's end), or from a block boundary after the beginning of one frame. Such a frame was never
    /// durable.
    ///
    /// Damage of any other shape is not: a whole frame but for its checksum, bytes after zeros, zeros that
    /// begin inside a block after bytes that were written. (A last record whose own last bytes are zeros
    /// and cross a block boundary, damaged before them, looks like a cut-short append: the one shape of
    /// damage this may take for one.)
    /// `bytes` start at `base` in the file (the stretch's offset is the file's).
    static func isCutShortAppend(_ stretch: BadStretch, in bytes: [UInt8], base: Int = 0, segment: UInt64, format: Format) -> Bool {
        let fileEnd = base + bytes.count
        guard stretch.atEnd, stretch.offset + stretch.count == fileEnd, stretch.offset >= base else { return false }
        var written = fileEnd
        while written > stretch.offset, bytes[written - 1 - base] == 0 { written -= 1 }
        if written == stretch.offset { return true }
        // The blocks a file system writes are 512 bytes at the least: unwritten ones begin at a multiple.
        let unwritten = (written + blockSize - 1) / blockSize * blockSize
        let end = min(unwritten, fileEnd)
        // As if the file ended there: one frame begun, not finished (the stretch alone is read, standing at
        // its place in the segment: not a copy of the whole segment).
        if case .incomplete = frame(in: Array(bytes[(stretch.offset - base)..<(end - base)]), at: 0, base: stretch.offset, segment: segment,
                                    format: format) {
            return true
        }
        return false
    }

    /// The smallest unit a disk writes whole (a sector): what a power loss leaves unwritten is whole ones.
    static let blockSize = 512

    /// The first payload byte of a padding record (an event record starts with its codec version, 1 or more).
    static let paddingMark: UInt8 = 0

    /// A record of exactly `count` bytes (at least ``headerSize`` + 1) that holds nothing: what repair
    /// wrote over a damaged stretch, so that every other record kept its offset, before it wrote damaged
    /// segments anew (for tests that make such journals; a scan still skips them).
    static func padding(count: Int, segment: UInt64, offset: Int, format: Format) -> [UInt8] {
        var bytes = [UInt8]()
        let payload = [UInt8](repeating: paddingMark, count: count - (format == .version2 ? headerSize : legacyHeaderSize))
        if format == .version2 { append(payload, segment: segment, offset: offset, to: &bytes) } else { appendLegacy(payload, to: &bytes) }
        return bytes
    }

    /// The checksum of where a record stands, seeding its payload's checksum.
    static func placeChecksum(segment: UInt64, offset: Int, length: UInt32) -> UInt32 {
        // The 20 bytes (segment, offset, length, little endian) on the stack: no array per record.
        let place = (segment.littleEndian, UInt64(offset).littleEndian, length.littleEndian)
        return withUnsafeBytes(of: place) { raw in
            raw.prefix(20).withMemoryRebound(to: UInt8.self) { CRC32.checksum($0, continuing: 0) }
        }
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    static func readUInt64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        UInt64(readUInt32(bytes, offset)) | UInt64(readUInt32(bytes, offset + 4)) << 32
    }

    static func putUInt32(_ value: UInt32, _ output: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
    }

    static func putUInt64(_ value: UInt64, _ output: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
    }
}
