/// Finding the next byte that becomes an entity, which every escaped value is scanned for: in text and
/// quoted attribute values (the common case) eight bytes at a time, since most values have none.
extension HTMLEscaping {
    /// The offset of the first byte at or after `start` that becomes an entity under `mask` (and `` ` `` with
    /// `backquote`), or nil when none does.
    @inline(__always)
    static func firstEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, mask: UInt64, backquote: Bool) -> Int? {
        var index = start
        if mask == textMask, !backquote, let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count, !hasTextSpecial(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
        }
        while index < bytes.count {
            if needsEscape(bytes[index], mask, backquote) { return index }
            index += 1
        }
        return nil
    }

    /// Whether any of eight bytes is `"`, `&`, `'`, `<` or `>`: a byte equal to one of them is found as a
    /// zero byte after an exclusive or (`&` and `'` differ in one bit, as do `<` and `>`, so three tests do).
    @inline(__always)
    private static func hasTextSpecial(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = hasZeroByte(word ^ (ones &* 0x22))
        let ampersandOrApostrophe = hasZeroByte((word | ones) ^ (ones &* 0x27))
        let angleBracket = hasZeroByte((word | (ones &* 0x02)) ^ (ones &* 0x3E))
        return quote | ampersandOrApostrophe | angleBracket != 0
    }

    /// Non-zero when a byte of the word is zero (exact as a yes/no; which bit is set may be off).
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }
}
