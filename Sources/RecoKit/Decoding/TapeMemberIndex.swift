import Foundation

/// The members of one object of a ``JSONTape``, indexed once for a keyed decoding container, so that a
/// model's fields are found without scanning the whole object for each of them.
///
/// Each member keeps its key's length and first 8 bytes, so most keys are told apart without reading
/// the document. The open-addressed table built while indexing (to find a repeated key) is kept, so a
/// lookup is a hash and usually one comparison, whatever order a model asks for its fields in. When the
/// object repeats a key (found while indexing), or has more members than the table holds, the last
/// member with the key wins, as in ``JSONValue``: lookups then scan from the end. An object with an
/// escaped key is looked up by ``JSONTape/member(utf8:of:)``, which unescapes.
final class TapeMemberIndex {
    private struct Entry {
        /// Where the key's bytes start in the document.
        var start: UInt32
        var length: UInt32
        /// The key's first 8 bytes (fewer for a shorter key, the rest zero), little-endian.
        var prefix: UInt64
        /// The value's token.
        var value: Int
    }

    let tape: JSONTape
    let object: Int
    private let entries: [Entry]
    private let repeatsKeys: Bool
    private let escapedKeys: Bool
    /// The members by key (entry index + 1, 0 for an empty slot), `tableSize` slots; used only when no key
    /// repeats (and so there are at most `checkedMembers` members: the table is never more than half full).
    /// Kept in the index itself (16 words, one byte a slot), so indexing allocates nothing for it.
    private let table: Table
    private typealias Table = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private static let tableSize = 2 * checkedMembers

    /// Objects with more members than this are not checked for repeated keys: lookups scan from the end.
    private static let checkedMembers = 64

    init(tape: JSONTape, object: Int) {
        self.tape = tape
        self.object = object
        (entries, table, repeatsKeys, escapedKeys) = tape.withBytes { raw in
            tape.tokens.withUnsafeBufferPointer { tokens in Self.index(object, raw, tokens) }
        }
    }

    /// The members of the object at `object`, their table, whether a key is repeated, whether a key is escaped.
    private static func index(_ object: Int, _ raw: UnsafeRawBufferPointer, _ tokens: UnsafeBufferPointer<JSONTape.Token>) -> ([Entry], Table, Bool, Bool) {
        var entries: [Entry] = []
        var repeatsKeys = false
        var escapedKeys = false
        let end = Int(tokens[object].info & JSONTape.Token.payloadMask)
        let objectKind = JSONTape.Kind.object.rawValue
        let arrayKind = JSONTape.Kind.array.rawValue
        entries.reserveCapacity(min((end - object) / 2, Self.checkedMembers))
        // An open-addressed table of the members seen so far (index + 1, 0 for empty), by key, for
        // finding a repeated key while indexing and for the lookups after.
        var table: Table = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &table) { table in
            let mask = Self.tableSize - 1
            precondition(table.count == Self.tableSize)
            var cursor = object + 1
            while cursor < end {
                let payload = tokens[cursor].info & JSONTape.Token.payloadMask
                if payload & JSONTape.Token.escapedFlag != 0 { escapedKeys = true }
                let start = Int(tokens[cursor].start) + 1
                let length = Int(payload & JSONTape.Token.lengthMask)
                let keyPrefix = Self.prefix(raw, start, length)
                let entry = Entry(start: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: length), prefix: keyPrefix, value: cursor + 1)
                if !repeatsKeys {
                    if entries.count >= Self.checkedMembers {
                        repeatsKeys = true
                    } else {
                        var place = Self.slot(keyPrefix, length) & mask
                        while table[place] != 0 {
                            if Self.same(entries[Int(table[place]) - 1], entry, raw) { repeatsKeys = true; break }
                            place = (place + 1) & mask
                        }
                        table[place] = UInt8(truncatingIfNeeded: entries.count + 1)
                    }
                }
                entries.append(entry)
                let value = tokens[cursor + 1].info
                let kind = value >> 29
                cursor = kind == objectKind || kind == arrayKind ? Int(value & JSONTape.Token.payloadMask) : cursor + 2
            }
        }
        return (entries, table, repeatsKeys, escapedKeys)
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

    private static func same(_ a: Entry, _ b: Entry, _ raw: UnsafeRawBufferPointer) -> Bool {
        guard a.length == b.length, a.prefix == b.prefix else { return false }
        guard a.length > 8 else { return true }
        return memcmp(raw.baseAddress! + Int(a.start) + 8, raw.baseAddress! + Int(b.start) + 8, Int(a.length) - 8) == 0
    }

    /// The value token of the member named `key` (the last one when the key is repeated), nil when
    /// there is none.
    func member(_ key: String) -> Int? {
        if escapedKeys { return tape.member(key, of: object) }
        var key = key
        return key.withUTF8 { wanted in member(utf8: wanted) }
    }

    private func member(utf8 wanted: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = entries.count
        guard count > 0 else { return nil }
        let length = UInt32(truncatingIfNeeded: wanted.count)
        guard wanted.count < (1 << 28) else { return nil }
        var prefix: UInt64 = 0
        if wanted.count >= 8 {
            prefix = UInt64(littleEndian: UnsafeRawPointer(wanted.baseAddress!).loadUnaligned(as: UInt64.self))
        } else {
            for offset in 0..<wanted.count { prefix |= UInt64(wanted[offset]) << (UInt64(offset) &* 8) }
        }
        return tape.withBytes { raw in
            entries.withUnsafeBufferPointer { entries in
                func matches(_ entry: Entry) -> Bool {
                    guard entry.length == length, entry.prefix == prefix else { return false }
                    return length <= 8 || memcmp(raw.baseAddress! + Int(entry.start) + 8, wanted.baseAddress! + 8, Int(length) - 8) == 0
                }
                if repeatsKeys {
                    var position = count
                    while position > 0 {
                        position -= 1
                        if matches(entries[position]) { return entries[position].value }
                    }
                    return nil
                }
                return withUnsafeBytes(of: table) { table in
                    let mask = Self.tableSize - 1
                    var place = Self.slot(prefix, wanted.count) & mask
                    // The table is at most half full, so a probe always meets an empty slot.
                    while table[place] != 0 {
                        let entry = entries[Int(table[place]) - 1]
                        if matches(entry) { return entry.value }
                        place = (place + 1) & mask
                    }
                    return nil
                }
            }
        }
    }
}