import CRecoChecksum

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), the checksum of every journal record.
///
/// Buffers of 16 bytes and more (32 on ARM) go to the processor's own instructions where it has them
/// (carry-less multiplication on x86-64, CRC32 instructions on ARM: `CRecoChecksum`), about four times
/// fewer instructions a byte; shorter ones, and processors without them, slicing-by-8 over tables built once.
/// `CRC32.checksum("123456789".utf8)` is `0xCBF43926`.
public enum CRC32 {
    private static let tables: [[UInt32]] = {
        var first = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
            first[index] = value
        }
        var tables = [first]
        for level in 1..<8 {
            var table = [UInt32](repeating: 0, count: 256)
            for index in 0..<256 {
                let previous = tables[level - 1][index]
                table[index] = (previous >> 8) ^ first[Int(previous & 0xFF)]
            }
            tables.append(table)
        }
        return tables
    }()
    private static let flat: [UInt32] = tables.flatMap { $0 }

    /// The checksum of `bytes`.
    public static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        if let fast = bytes.withContiguousStorageIfAvailable({ checksum($0) }) { return fast }
        return checksum(Array(bytes))
    }

    /// The checksum of `bytes` following bytes whose checksum was `previous`: `checksum(b, continuing:
    /// checksum(a))` is `checksum(a + b)`.
    public static func checksum<Bytes: Sequence>(_ bytes: Bytes, continuing previous: UInt32) -> UInt32 where Bytes.Element == UInt8 {
        if let fast = bytes.withContiguousStorageIfAvailable({ checksum($0, continuing: previous) }) { return fast }
        return checksum(Array(bytes), continuing: previous)
    }

    /// Whether this processor folds with carry-less multiplication (x86-64 with PCLMULQDQ).
    static let folds = reco_crc32_can_fold() != 0

    /// Whether longer checksums use the processor's own instructions here.
    static var usesProcessorInstructions: Bool {
        var state: UInt32 = 0
        return folds || reco_crc32_arm(&state, nil, 0) != 0
    }

    /// The checksum of the bytes in `buffer` (following bytes whose checksum was `previous`, if given).
    public static func checksum(_ buffer: UnsafeBufferPointer<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        guard let base = buffer.baseAddress else { return previous }
        if buffer.count >= 16, folds {
            // Folded and reduced in C, a length that is not a multiple of 16 too (`reco_crc32_fold_any`).
            return ~reco_crc32_fold_any(~previous, base, buffer.count)
        }
        if buffer.count >= 32 {
            var state = ~previous
            if reco_crc32_arm(&state, base, buffer.count) != 0 { return ~state }
        }
        return table(buffer, continuing: previous)
    }

    /// Slicing-by-8: eight bytes a step, read as one little-endian word (one load, not eight loads,
    /// shifts and ors).
    private static func table(_ buffer: UnsafeBufferPointer<UInt8>, continuing previous: UInt32) -> UInt32 {
        guard let base = buffer.baseAddress else { return previous }
        return flat.withUnsafeBufferPointer { tables in
            let table = tables.baseAddress!
            let from = UnsafeRawPointer(base)
            var crc: UInt32 = ~previous
            var index = 0
            let count = buffer.count
            while index + 8 <= count {
                let word = UInt64(littleEndian: from.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ UInt64(crc)
                let low = UInt32(truncatingIfNeeded: word)
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc = table[1792 + Int(low & 0xFF)] ^ table[1536 + Int((low >> 8) & 0xFF)]
                    ^ table[1280 + Int((low >> 16) & 0xFF)] ^ table[1024 + Int(low >> 24)]
                    ^ table[768 + Int(high & 0xFF)] ^ table[512 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(base[index])) & 0xFF)]
                index += 1
            }
            return crc ^ 0xFFFF_FFFF
        }
    }
}
