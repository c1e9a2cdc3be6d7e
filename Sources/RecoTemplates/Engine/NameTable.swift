import RecoKit

/// The names a template looks up (the first part of each), numbered when it is compiled.
///
/// When a JSON object becomes a scope, its keys are matched to these numbers in one pass over the object
/// (``match(_:into:at:)``), and every lookup in that scope afterwards reads a slot instead of hashing the
/// name again, which is what made a render cost a hashed lookup per tag per level of the context stack. A
/// key is matched by its length first, so most keys are compared with one name at most.
final class NameTable: Sendable {
    /// The names, by number.
    let names: [String]
    /// The names sorted by length in bytes, each with its number: `starts[n]..<starts[n + 1]` holds those
    /// of length n, the last group every name of ``longName`` bytes or more.
    private let byLength: [(name: String, slot: Int)]
    private let starts: [Int]

    /// Names this long or longer share the last group of ``byLength``.
    private static let longName = 32

    init(_ names: [String]) {
        self.names = names
        let numbered = names.enumerated().map { (name: $0.element, slot: $0.offset) }
        byLength = numbered.sorted { Self.group($0.name) < Self.group($1.name) }
        var starts = [Int](repeating: 0, count: Self.longName + 2)
        for entry in byLength { starts[Self.group(entry.name) + 1] += 1 }
        for length in 1..<starts.count { starts[length] += starts[length - 1] }
        self.starts = starts
    }

    @inline(__always)
    private static func group(_ name: String) -> Int { min(name.utf8.count, longName) }

    /// How many names there are: the size of a scope's slots.
    var count: Int { names.count }

    /// Whether matching an object's keys is worth it, for a scope whose nodes look up `lookups` names: it
    /// costs a pass over every key, about a third of a hashed lookup per key, so it pays unless the object
    /// has many more keys than the template asks for (a vendor product with a hundred fields rendered by a
    /// template that shows three is looked up by hashing).
    func isWorthMatching(keyCount: Int, lookups: Int) -> Bool {
        !names.isEmpty && keyCount <= 3 * lookups + 4
    }

    /// Writes, for every name, the index of its key in `members` into `slots[base + number]`, or nil when
    /// `members` has no such key.
    func match(
        _ members: [String: JSONValue], into slots: inout [Dictionary<String, JSONValue>.Index?], at base: Int
    ) {
        for slot in base..<(base + byLength.count) { slots[slot] = nil }
        var index = members.startIndex
        let end = members.endIndex
        while index != end {
            let key = members.keys[index]
            let group = Self.group(key)
            for candidate in starts[group]..<starts[group + 1] where byLength[candidate].name == key {
                slots[base + byLength[candidate].slot] = index
                break
            }
            members.formIndex(after: &index)
        }
    }

    /// Numbers names as a template's compiler meets them.
    struct Builder {
        private var numbers: [String: Int] = [:]
        private var names: [String] = []
        /// How many names were met so far, counting repeats: the lookups the nodes compiled so far make.
        private(set) var lookups = 0

        /// The name's number, given when it is first met.
        mutating func slot(for name: String) -> Int {
            lookups += 1
            if let number = numbers[name] { return number }
            numbers[name] = names.count
            names.append(name)
            return names.count - 1
        }

        /// The table of every name met.
        func table() -> NameTable { NameTable(names) }
    }
}
