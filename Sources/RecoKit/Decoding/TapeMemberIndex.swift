import Foundation

/// The members of one object of a ``JSONTape``, indexed once for a keyed decoding container, so that a
/// model's fields are found without scanning the whole object for each of them.
///
/// The index is an open-addressed table of the object's key tokens (their distance from the object's
/// token), by the key's length and first 8 bytes, kept inside the index itself: indexing allocates
/// nothing but the index, and a lookup is a hash and usually one comparison, whatever order a model
/// asks for its fields in. The same table finds a repeated key while indexing. When the object repeats
/// a key, has more members than the table holds, is too long for its distances, or has an escaped
/// key, it is looked up by ``JSONTape/member(utf8:of:)`` instead, which unescapes and lets the last
/// member with the key win, as in ``JSONValue``.
final class TapeMemberIndex {
    let tape: JSONTape
    let object: Int
    /// The coding path of the object, for the keyed decoding container the index serves.
    let codingPath: [any CodingKey]
    /// Whether lookups go through the table (false: through ``JSONTape/member(utf8:of:)``).
    private let indexed: Bool
    /// `tableSize` slots, each a key token's distance from `object` (0 for an empty slot: a key is
    /// never the object's own token). At most `maximumMembers` members go in, so the table is never
    /// more than half full and every probe meets an empty slot. 32 words kept in the index itself.
    private let table: Table
    private typealias Table = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    )
    private static let tableSize = 2 * maximumMembers

    /// Objects with more members than this are looked up by scanning.
    private static let maximumMembers = 64

    init(tape: JSONTape, object: Int, codingPath: [any CodingKey] = []) {
        self.tape = tape
        self.object = object
        self.codingPath = codingPath
        (table, indexed) = tape.withBytes { raw in
            tape.tokens.withUnsafeBufferPointer { tokens in Self.index(object, raw, tokens) }
        }
    }

    /// The table of the object at `object`, and whether it can serve lookups (no repeated or escaped
    /// key, at most `maximumMembers` members, every key within a 16-bit distance).
    private static func index(_ object: Int, _ raw: UnsafeRawBufferPointer, _ tokens: UnsafeBufferPointer<JSONTape.Token>) -> (Table, Bool) {
        var table: Table = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let end = Int(tokens[object].info & JSONTape.Token.payloadMask)
        let objectKind = JSONTape.Kind.object.rawValue
        let arrayKind = JSONTape.Kind.array.rawValue
        let indexed = withUnsafeMutableBytes(of: &table) { bytes in bytes.withMemoryRebound(to: UInt16.self) { table -> Bool in
            precondition(table.count == Self.tableSize)
            let mask = Self.tableSize - 1
            var members = 0
            var cursor = object + 1
            while cursor < end {
                let payload = tokens[cursor].info & JSONTape.Token.payloadMask
                members += 1
                guard payload & JSONTape.Token.escapedFlag == 0, members <= Self.maximumMembers, cursor - object <= Int(UInt16.max) else { return false }
                let start = Int(tokens[cursor].start) + 1
                let length = Int(payload & JSONTape.Token.lengthMask)
                var place = Self.slot(Self.prefix(raw, start, length), length) & mask
                while table[place] != 0 {
                    if Self.same(tokens[object + Int(table[place])], tokens[cursor], raw) { return false }
                    place = (place + 1) & mask
                }
                table[place] = UInt16(truncatingIfNeeded: cursor - object)
                let value = tokens[cursor + 1].info
                let kind = value >> 29
                cursor = kind == objectKind || kind == arrayKind ? Int(value & JSONTape.Token.payloadMask) : cursor + 2
            }
            return true
        } }
        return (table, indexed)
    }

    /// The first up to 8 bytes at `start` as a number, zero-padded.
    private static func prefix(_ raw: UnsafeRawBufferPointer, _ start: Int, _ length: Int) -> UInt64 {
        if start + 8 <= raw.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
            return length >= 8 ? word : word & ((1 << (UInt64(length) &* 8)) &- 1)
        }
        var value: UInt64 = 0
        var offset = length
        while offset > 0 {
            offset -= 1
            value = value << 8 | UInt64(raw[start + offset])
        }
        return value
    }

    private static func slot(_ prefix: UInt64, _ length: Int) -> Int {
        Int(truncatingIfNeeded: ((prefix ^ UInt64(length)) &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    /// Whether two (unescaped) key tokens have the same bytes.
    private static func same(_ a: JSONTape.Token, _ b: JSONTape.Token, _ raw: UnsafeRawBufferPointer) -> Bool {
        let length = a.info & JSONTape.Token.lengthMask
        guard length == b.info & JSONTape.Token.lengthMask else { return false }
        return length == 0 || memcmp(raw.baseAddress! + Int(a.start) + 1, raw.baseAddress! + Int(b.start) + 1, Int(length)) == 0
    }

    /// The value token of the member named `key` (the last one when the key is repeated), nil when
    /// there is none.
    func member(_ key: String) -> Int? {
        guard indexed else { return tape.member(key, of: object) }
        var key = key
        return key.withUTF8 { wanted in member(utf8: wanted) }
    }

    private func member(utf8 wanted: UnsafeBufferPointer<UInt8>) -> Int? {
        guard wanted.count < (1 << 28) else { return nil }
        let length = UInt32(truncatingIfNeeded: wanted.count)
        var prefix: UInt64 = 0
        if wanted.count >= 8 {
            prefix = UInt64(littleEndian: UnsafeRawPointer(wanted.baseAddress!).loadUnaligned(as: UInt64.self))
        } else {
            for offset in 0..<wanted.count { prefix |= UInt64(wanted[offset]) << (UInt64(offset) &* 8) }
        }
        let object = object
        return tape.withBytes { raw in
            tape.tokens.withUnsafeBufferPointer { tokens in
                withUnsafeBytes(of: table) { bytes in bytes.withMemoryRebound(to: UInt16.self) { table in
                    let mask = Self.tableSize - 1
                    var place = Self.slot(prefix, wanted.count) & mask
                    while table[place] != 0 {
                        let key = object + Int(table[place])
                        let token = tokens[key]
                        if token.info & JSONTape.Token.lengthMask == length,
                           length == 0 || memcmp(raw.baseAddress! + Int(token.start) + 1, wanted.baseAddress!, wanted.count) == 0 {
                            return key + 1
                        }
                        place = (place + 1) & mask
                    }
                    return nil
                } }
            }
        }
    }
}
