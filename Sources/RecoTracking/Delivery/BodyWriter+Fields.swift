import CRecoEscaping

extension BodyWriter.Cursor {
    /// A record's field as a JSON string literal (with quotes, `""` when absent), escaped as
    /// ``appendEscaped(_:)`` escapes it.
    @inlinable @inline(__always)
    public mutating func appendJSONString(_ field: EventRecord.Field, of fields: EventRecord.Fields) {
        append(byte: UInt8(ascii: "\""))
        appendEscaped(field, of: fields)
        append(byte: UInt8(ascii: "\""))
    }

    /// `key` and a record's field as a JSON string after it, closed with its quote (`key`, 4 to 24 bytes,
    /// holds the field's opening quote: `,"lang":"`). An absent field is left out, or written `""` when `always`. One call to
    /// `CRecoEscaping` for the key, the field and the quote.
    @inlinable @inline(__always)
    public mutating func appendMember(_ key: StaticString, _ field: EventRecord.Field, of fields: EventRecord.Fields, always: Bool = false) {
        let span = fields.spans[field]
        guard span != 0 || always else { return }
        precondition(span == 0 || span >> 32 >= 8, "a record's field lies after its header")
        precondition((4...24).contains(key.utf8CodeUnitCount), "a member's key takes 4 to 24 bytes")
        index += reco_json_member(base + index, key.utf8Start, key.utf8CodeUnitCount,
                                  fields.base + Int(truncatingIfNeeded: span >> 32), max(0, Int(truncatingIfNeeded: span & 0xFFFF_FFFF) &- 1))
    }

    /// A record's field escaped for a JSON string (no quotes; nothing when absent), as ``appendEscaped(_:)``
    /// escapes it.
    ///
    /// A field of up to eight bytes is read as the one word that ends where the field ends, shifted down to
    /// it: every field of a record lies after its 27-byte header, so those eight bytes are always the
    /// record's own, and a short field costs a load, a check and a store instead of a loop over its bytes.
    @inlinable @inline(__always)
    public mutating func appendEscaped(_ field: EventRecord.Field, of fields: EventRecord.Fields) {
        let span = fields.spans[field]
        let count = Int(truncatingIfNeeded: span & 0xFFFF_FFFF) &- 1
        guard count > 0 else { return }
        let start = Int(truncatingIfNeeded: span >> 32)
        if count <= 8, start + count >= 8 {
            let end = UnsafeRawPointer(fields.base + start + count)
            // The field's bytes in the word's low `count` bytes; the rest made a letter, which needs no escape.
            let word = UInt64(littleEndian: end.loadUnaligned(fromByteOffset: -8, as: UInt64.self)) >> UInt64(64 - 8 * count)
            let filler: UInt64 = count == 8 ? 0 : 0x4141_4141_4141_4141 << UInt64(8 * count)
            if !Self.needsEscape(word | filler) {
                UnsafeMutableRawPointer(base + index).storeBytes(of: word.littleEndian, as: UInt64.self)
                index += count
                return
            }
            index += reco_json_escape(base + index, fields.base + start, count)
            return
        }
        appendEscaped(UnsafeBufferPointer(start: fields.base + start, count: count))
    }
}
