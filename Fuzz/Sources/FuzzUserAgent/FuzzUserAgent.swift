import Foundation
import FuzzSupport
import RecoPage

/// A request's `User-Agent`, which anyone on the internet writes, read by `KnownBots.match` (one pass of an
/// automaton over its bytes) on every page request. Two modes, by the input's first byte:
///
/// - **even**: the rest is the user agent, matched against the built-in list;
/// - **odd**: the rest, split at its first newline, is a token list (one token a line, `|` also
///   separating) and a user agent, matched against that list.
///
/// Every answer must be the definition's: the first token, in the list's order, whose UTF-8 bytes occur
/// in the user agent lower-cased (`lowercased()`), found here by plain byte search. And the impression
/// policy must call the visit a bot's exactly when the list matches or the agent is blank.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUserAgent(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(pointer, size)
    guard let mode = input.data.first else { return 0 }
    let rest = input.data.dropFirst()
    let bots: KnownBots
    let userAgent: String
    if mode % 2 == 0 {
        bots = .builtIn
        userAgent = String(decoding: rest, as: UTF8.self)
    } else {
        let newline = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        let list = String(decoding: rest[rest.startIndex..<newline], as: UTF8.self)
        bots = KnownBots(tokens: list.split(separator: "|").map(String.init))
        userAgent = String(decoding: rest[newline...].dropFirst(), as: UTF8.self)
    }
    let found = bots.match(userAgent)
    let expected = firstToken(bots.tokens, in: userAgent)
    fuzzCheck(found == expected, "match answered \(found.debugDescription), the definition \(expected.debugDescription), for \(userAgent.debugDescription) and tokens \(bots.tokens)")
    let visit = ImpressionPolicy(bots: bots).visit(userAgent: userAgent, headers: [(name: "User-Agent", value: userAgent)])
    let blank = userAgent.unicodeScalars.allSatisfy { CharacterSet.whitespaces.contains($0) }
    fuzzCheck((visit.kind == .bot) == (blank || found != nil), "the visit is \(visit) for \(userAgent.debugDescription) (match \(found.debugDescription))")
    return 0
}

/// The definition, by plain byte search: the first token whose bytes occur in `userAgent` lower-cased.
private func firstToken(_ tokens: [String], in userAgent: String) -> String? {
    let text = Array(userAgent.lowercased().utf8)
    return tokens.first { token in
        let needle = Array(token.utf8)
        guard let head = needle.first, needle.count <= text.count else { return false }
        var at = 0
        while at + needle.count <= text.count {
            if text[at] == head, text[at..<(at + needle.count)].elementsEqual(needle) { return true }
            at += 1
        }
        return false
    }
}
