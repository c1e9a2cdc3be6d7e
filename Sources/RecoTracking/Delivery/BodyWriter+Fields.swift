import CRecoEscaping

extension BodyWriter.Cursor {
    /// `key` and a record's field as a JSON string after it, closed with its quote (`key`, 4 to 24 bytes,
    /// holds the field's opening quote: `,"lang":"`). An absent field is left out, or written `""` when
    /// `always`. One call to `CRecoEscaping` (`reco_json_member`) for the key, the field and the quote: a
    /// field of up to eight bytes is read as the one word that ends where it ends, shifted down to it,
    /// since every field of a record lies after its 27-byte header.
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
    /// escapes it (the rare member whose value is more than the field: a faceted search's `|product`).
    @inlinable
    public mutating func appendEscaped(_ field: EventRecord.Field, of fields: EventRecord.Fields) {
        if let bytes = fields[field] { appendEscaped(bytes) }
    }
}
