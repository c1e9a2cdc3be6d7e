import Foundation

/// The members of one object of a ``JSONTape``, indexed once for a keyed decoding container, so that a
/// model's fields are found without scanning the whole object for each of them.
///
/// Each member keeps its key's length and first 8 bytes, so most keys are told apart without reading
/// the document. Models decode their fields mostly in the order they are written, so a lookup starts
/// where the previous one found its member. When the object repeats a key (found while indexing), the
/// last member with the key wins, as in ``JSONValue``: lookups then scan from the end. An object with an
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
    /// Where the next lookup starts. (A container is read by one decoder at a time, so no dynamic
    /// exclusivity check is needed; it would cost more than the lookup.)
    @exclusivity(unchecked) private var hint = 0

    /// Objects with more members than this are not checked for repeated keys: lookups scan from the end.
    private static let checkedMembers = 64

    init(tape: JSONTape, object: Int) {
        self.tape = tape
        self.object = object
        (entries, repeatsKeys, escapedKeys) = tape.withBytes { raw in
            tape.tokens.withUnsafeBufferPointer { tokens in Self.index(object, raw, tokens) }
        }
    }

    /// The members of the object at `object`, whether a key is repeated, whether a key is escaped.
    private static func index(_ object: Int, _ raw: UnsafeRawBufferPointer, _ tokens: UnsafeBufferPointer<JSONTape.Token>) -> ([Entry], Bool, Bool) {
        var entries: [Entry] = []
        var repeatsKeys = false
        var escapedKeys = false
        let end = Int(tokens[object].info & JSONTape.Token.payloadMask)
        let objectKind = JSONTape.Kind.object.rawValue
        let arrayKind = JSONTape.Kind.array.rawValue
        entries.reserveCapacity(min((end - object) / 2, Self.checkedMembers))
        // An open-addressed table of the members seen so far (index + 1, 0 for empty), by key, for
        // finding a repeated key while indexing.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * Self.checkedMembers) { table in
            table.initialize(repeating: 0)
            let mask = table.count - 1
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
        return (entries, repeatsKeys, escapedKeys)
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
        for offset in stride(from: min(wanted.count, 8) - 1, through: 0, by: -1) { prefix = prefix << 8 | UInt64(wanted[offset]) }
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
                var position = hint < count ? hint : 0
                for _ in 0..<count {
                    if matches(entries[position]) {
                        hint = position + 1
                        return entries[position].value
                    }
                    position += 1
                    if position == count { position = 0 }
                }
                return nil
            }
        }
    }
}
