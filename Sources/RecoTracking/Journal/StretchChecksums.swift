/// The CRC-32 of any stretch of a byte array in time independent of its length: what a scan for the next
/// valid frame over damaged bytes needs.
///
/// A version-1 frame has no mark: at offsets of damaged bytes the 4 bytes read as a length are a possible
/// one about once in 1,024 (lengths up to 4 MiB of 4 Gi), and checking such a candidate meant the checksum
/// of up to 4 MiB of payload: a debug build took 30 s for a 4 MiB segment of random bytes, thousands of
/// checksummed bytes per byte scanned. A version-2 frame's mark and header check can be forged at every
/// 12 bytes of hostile bytes, which made the scan quadratic. Here the checksums of the array's
/// prefixes are kept every ``stride`` bytes (one pass over the bytes, 4 bytes kept per 256), and a stretch's
/// checksum is computed from the checksums of the two prefixes around it, as zlib's `crc32_combine` does:
/// `crc(a + b) = crc(a) · x^(8·|b|) mod P  xor  crc(b)`, so `crc(b)` follows from `crc(a + b)` and `crc(a)`.
struct StretchChecksums {
    /// Bytes between kept prefix checksums.
    static let stride = 256
    /// Below this length a stretch is checksummed directly (cheaper than two partial prefixes and a shift).
    static let directBelow = 4096

    private let bytes: [UInt8]
    /// `prefixes[k]` is the checksum of `bytes[0 ..< k * stride]`.
    private let prefixes: [UInt32]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var prefixes = [UInt32](repeating: 0, count: bytes.count / Self.stride + 1)
        bytes.withUnsafeBufferPointer { buffer in
            var crc: UInt32 = 0
            for block in 1..<prefixes.count {
                let start = (block - 1) * Self.stride
                crc = CRC32.checksum(UnsafeBufferPointer(rebasing: buffer[start ..< start + Self.stride]), continuing: crc)
                prefixes[block] = crc
            }
        }
        self.prefixes = prefixes
    }

    /// The checksum of `bytes[range]`, as `CRC32.checksum(bytes[range])` gives it.
    func checksum(of range: Range<Int>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            if range.count < Self.directBelow { return CRC32.checksum(UnsafeBufferPointer(rebasing: buffer[range])) }
            let before = prefix(upTo: range.lowerBound, buffer)
            let through = prefix(upTo: range.upperBound, buffer)
            return through ^ CRC32.shift(before, byBytes: range.count)
        }
    }

    /// The checksum of `bytes[0 ..< end]`: the kept prefix below it and at most `stride - 1` bytes more.
    private func prefix(upTo end: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let block = end / Self.stride
        let start = block * Self.stride
        return CRC32.checksum(UnsafeBufferPointer(rebasing: buffer[start ..< end]), continuing: prefixes[block])
    }
}

extension CRC32 {
    /// `crc` as it contributes to the checksum of its bytes followed by `count` more: multiplied by
    /// x^(8·count) modulo the polynomial. `checksum(a + b) == shift(checksum(a), byBytes: b.count) ^ checksum(b)`.
    static func shift(_ crc: UInt32, byBytes count: Int) -> UInt32 {
        var result = crc
        var remaining = UInt(count)
        var power = 0
        while remaining != 0 {
            if remaining & 1 == 1 { result = multiply(byteShifts[power], result) }
            remaining >>= 1
            power += 1
        }
        return result
    }

    /// `byteShifts[k]` is x^(8·2^k) modulo the polynomial (bit-reflected, as the checksum's values are).
    private static let byteShifts: [UInt32] = {
        var shifts: [UInt32] = []
        var value: UInt32 = 1 << 23  // x^8: x^0 is the top bit in reflected order
        for _ in 0..<64 {
            shifts.append(value)
            value = multiply(value, value)
        }
        return shifts
    }()

    /// `a · b` modulo the polynomial, both bit-reflected.
    private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var product: UInt32 = 0
        var factor = b
        var mask: UInt32 = 1 << 31
        while mask != 0 {
            if a & mask != 0 { product ^= factor }
            mask >>= 1
            factor = factor & 1 == 1 ? (factor >> 1) ^ 0xEDB8_8320 : factor >> 1
        }
        return product
    }
}
