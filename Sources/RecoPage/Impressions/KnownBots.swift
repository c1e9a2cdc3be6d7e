import Foundation

/// The user agents of known bots and crawlers, as case-insensitive tokens matched anywhere in a
/// request's `User-Agent`: search engines, link previews, SEO and AI crawlers, monitors, headless
/// browsers and HTTP libraries.
///
/// The list is data: `Sources/RecoPage/Impressions/known-bots.txt` (one token a line, `#` comments),
/// built in as ``builtIn``. To add your own, load an edited copy, or add tokens:
///
/// ```swift
/// let bots = try KnownBots(contentsOf: URL(fileURLWithPath: "config/known-bots.txt"))
/// let more = KnownBots.builtIn.adding(["mycompany-monitor"])
/// ```
public struct KnownBots: Hashable, Sendable {
    /// The tokens, lower-cased, in the list's order.
    public let tokens: [String]
    /// All the tokens at once, for ``match(_:)``.
    private let matcher: TokenMatcher

    /// A list of tokens (matched case-insensitively). Make a list once and keep it (as ``builtIn`` is):
    /// its tokens are compiled into one automaton here, about a third of a millisecond for the built-in list.
    public init(tokens: [String]) {
        self.tokens = tokens.map { $0.lowercased() }.filter { !$0.isEmpty }
        matcher = TokenMatcher(tokens: self.tokens)
    }

    public static func == (left: KnownBots, right: KnownBots) -> Bool { left.tokens == right.tokens }

    public func hash(into hasher: inout Hasher) { hasher.combine(tokens) }

    /// A list in the file format: one token a line; blank lines and lines starting with `#` ignored.
    public init(text: String) {
        self.init(tokens: text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") })
    }

    /// The list in a file.
    /// - Throws: the file system's error when the file cannot be read.
    public init(contentsOf url: URL) throws {
        self.init(text: try String(contentsOf: url, encoding: .utf8))
    }

    /// The list shipped with RecoPage (`known-bots.txt`).
    public static let builtIn = KnownBots(text: KnownBots.builtInText)

    /// This list with more tokens.
    public func adding(_ more: [String]) -> KnownBots { KnownBots(tokens: tokens + more) }

    /// The first token (in the list's order) found in `userAgent` lower-cased, or nil when it names no
    /// known bot: one pass over its bytes for all the tokens at once (``TokenMatcher``).
    public func match(_ userAgent: String) -> String? {
        matcher.firstToken(in: userAgent).map { tokens[$0] }
    }
}
