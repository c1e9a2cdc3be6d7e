/// Finds which of many lower-case tokens occur in a text, in one pass over its bytes: an Aho–Corasick
/// automaton, built once per token list, whose transitions are a table (the bytes the tokens use are
/// numbered; every other byte is one class). ``KnownBots/match(_:)`` asks it of every page request's
/// `User-Agent`, where asking each token in turn (`String.contains`, through Foundation) cost a third of a
/// cached page's CPU.
///
/// A token matches where its UTF-8 bytes occur in the text lower-cased: byte by byte, not by the
/// canonical equivalence Foundation's `contains` used (which differs between Linux and Darwin).
struct TokenMatcher: Sendable {
    /// The class of each byte value: 0 for bytes no token has.
    private let classes: [UInt8]
    private let classCount: Int
    /// `next[state * classCount + class]`: the state after reading a byte of that class.
    private let next: [Int32]
    /// For each state, the smallest index (in the token list) of a token that ends there, directly or
    /// as a suffix of what was read; `Int32.max` for none.
    private let firstEnding: [Int32]

    /// An automaton for `tokens` (lower-case; empty tokens are ignored).
    init(tokens: [String]) {
        var classes = [UInt8](repeating: 0, count: 256)
        var classCount = 1
        for token in tokens {
            // At most 230 classes: lower-cased tokens have no byte of A-Z.
            for byte in token.utf8 where classes[Int(byte)] == 0 && classCount < 256 {
                classes[Int(byte)] = UInt8(classCount)
                classCount += 1
            }
        }
        // The trie of the tokens: `children[state]` by class, -1 for none.
        var children: [[Int32]] = [[Int32](repeating: -1, count: classCount)]
        var firstEnding: [Int32] = [.max]
        for (index, token) in tokens.enumerated() where !token.isEmpty {
            var state = 0
            for byte in token.utf8 {
                let byteClass = Int(classes[Int(byte)])
                if children[state][byteClass] < 0 {
                    children[state][byteClass] = Int32(children.count)
                    children.append([Int32](repeating: -1, count: classCount))
                    firstEnding.append(.max)
                }
                state = Int(children[state][byteClass])
            }
            firstEnding[state] = min(firstEnding[state], Int32(index))
        }
        // Breadth first: each state's failure (its longest proper suffix that is a trie state) is known
        // before its children's; a missing transition is the failure's transition.
        var next = [Int32](repeating: 0, count: children.count * classCount)
        var failure = [Int32](repeating: 0, count: children.count)
        var queue: [Int] = []
        for byteClass in 0..<classCount {
            let child = children[0][byteClass]
            if child >= 0 {
                next[byteClass] = child
                queue.append(Int(child))
            }
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            let fallback = Int(failure[state])
            firstEnding[state] = min(firstEnding[state], firstEnding[fallback])
            for byteClass in 0..<classCount {
                let child = children[state][byteClass]
                if child >= 0 {
                    failure[Int(child)] = next[fallback * classCount + byteClass]
                    next[state * classCount + byteClass] = child
                    queue.append(Int(child))
                } else {
                    next[state * classCount + byteClass] = next[fallback * classCount + byteClass]
                }
            }
        }
        self.classes = classes
        self.classCount = classCount
        self.next = next
        self.firstEnding = firstEnding
    }

    /// The index of the first token (in the list's order) whose bytes occur in `text` lower-cased, or nil.
    ///
    /// ASCII text is lower-cased byte by byte as it is read (what `lowercased()` does to ASCII); text with
    /// other characters is lower-cased first, by `lowercased()`, then read.
    func firstToken(in text: String) -> Int? {
        if let found = scan(text.utf8, asciiOnly: true) { return found }
        return scan(text.lowercased().utf8, asciiOnly: false) ?? nil
    }

    /// An ASCII capital letter as its small letter, any other byte as it is: what `lowercased()` does to ASCII.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// The first token's index (`.some(nil)` for none), or nil when `asciiOnly` and a byte is not ASCII.
    private func scan(_ bytes: String.UTF8View, asciiOnly: Bool) -> Int?? {
        var state = 0
        var first = Int32.max
        for byte in bytes {
            if asciiOnly, byte >= 0x80 { return nil }
            state = Int(next[state * classCount + Int(classes[Int(Self.lowercased(byte))])])
            first = min(first, firstEnding[state])
        }
        return .some(first == .max ? nil : Int(first))
    }
}
