/// Decides, per page request, whether what the page shows and what the visitor does on it is recorded:
/// a known bot or crawler (``KnownBots``, or no `User-Agent` at all) records nothing, impressions and
/// click-throughs alike; a prefetch (`Sec-Purpose: prefetch`, or `Purpose: prefetch`, also with
/// `;prerender` and other parameters) records nothing either, since nobody has seen the page yet
/// (record the impressions when the page is shown, from the page itself).
///
/// ```swift
/// let gate = ImpressionGate(tracker: tracker, initialConsent: .granted)
/// let visit = ImpressionPolicy().visit(headers: headers)   // the page request's headers
/// if visit.records { _ = try gate.record(.impression(of: widget, context: context), visitor: cookie, visit: visit) }
/// ```
public struct ImpressionPolicy: Sendable {
    /// The bots that record nothing.
    public var bots: KnownBots

    /// A policy with `bots` (the built-in list unless given).
    public init(bots: KnownBots = .builtIn) { self.bots = bots }

    /// What is recorded for a request with this user agent and these headers (names compared
    /// case-insensitively).
    public func visit(userAgent: String?, headers: [(name: String, value: String)]) -> PageVisit {
        for header in headers {
            let name = header.name
            guard Self.named(name, "sec-purpose") || Self.named(name, "purpose") || Self.named(name, "x-purpose")
                    || Self.named(name, "x-moz") else { continue }
            let purposes = header.value.lowercased().split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }
            if purposes.contains("prefetch") || purposes.contains("preview") || purposes.contains("prerender") {
                return PageVisit(.prefetch, detail: "\(header.name): \(header.value)")
            }
        }
        // Blank as `trimmingCharacters(in: .whitespaces)` sees it (spaces and tabs), without Foundation's
        // string machinery: this runs for every page request.
        guard let userAgent, !userAgent.unicodeScalars.allSatisfy({ $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }) else {
            return PageVisit(.bot, detail: "no User-Agent")
        }
        if let token = bots.match(userAgent) { return PageVisit(.bot, detail: token) }
        return PageVisit(.visitor, detail: "")
    }

    /// ``visit(userAgent:headers:)`` with the user agent read from the headers.
    public func visit(headers: [(name: String, value: String)]) -> PageVisit {
        visit(userAgent: headers.first { Self.named($0.name, "user-agent") }?.value, headers: headers)
    }

    /// Whether a header's name is `lowercaseName`, letters compared case-insensitively: byte by byte, with
    /// no lower-cased copy (HTTP names are ASCII; no other letter lower-cases to one of these names' letters).
    static func named(_ name: String, _ lowercaseName: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.count == lowercaseName.utf8.count else { return false }
        return zip(utf8, lowercaseName.utf8).allSatisfy { byte, lower in TokenMatcher.lowercased(byte) == lower }
    }
}

/// Who or what asked for a page, as the ``ImpressionPolicy`` sees it.
public struct PageVisit: Hashable, Sendable, CustomStringConvertible {
    /// Who or what it is.
    public enum Kind: String, Hashable, Sendable {
        /// A person's browser: its interactions are recorded (as consent allows).
        case visitor
        /// A known bot or crawler: nothing is recorded.
        case bot
        /// A prefetch or prerender: nothing is recorded, nobody has seen the page.
        case prefetch
    }

    /// Who or what it is.
    public let kind: Kind
    /// For a bot, the token that matched (or `no User-Agent`); for a prefetch, the header.
    public let detail: String

    /// A visit.
    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// Whether impressions and clicks of this visit are recorded at all.
    public var records: Bool { kind == .visitor }

    public var description: String { detail.isEmpty ? kind.rawValue : "\(kind.rawValue) (\(detail))" }
}
