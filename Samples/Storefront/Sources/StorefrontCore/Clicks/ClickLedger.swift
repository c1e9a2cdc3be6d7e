import Foundation

/// Remembers which clicks were counted, so that following one link again and again counts one click:
/// one per link (a token: one rendering of one product of one block) and visitor while the link lives.
///
/// A request with no valid visitor cookie (a bot that keeps no cookies, or sends forged ones) is
/// counted under one shared anonymous visitor: however many such requests follow a link, it gets one
/// cookie-less click. Bounded: at most ``maxEntries`` links-and-visitors (the least recently counted go
/// first, and only then could a very old link count again); an entry is dropped once its link expires.
public final class ClickLedger: @unchecked Sendable {
    /// The most clicks remembered.
    public let maxEntries: Int
    /// The visitor name used for requests without a valid visitor.
    public static let anonymous = "-"
    private let lock = NSLock()
    private var seen: BoundedLRU<String, Date>

    /// An empty ledger (default: 100,000 clicks, about 16 MiB at most).
    public init(maxEntries: Int = 100_000) {
        self.maxEntries = max(1, maxEntries)
        seen = BoundedLRU(maxCount: self.maxEntries, maxBytes: self.maxEntries * 160)
    }

    /// Whether this click is the first of `visitor` (nil: anonymous) on the link `tokenId` (a text that
    /// names one issued token, such as its tag), and so should be counted; remembers it until `expires`.
    public func isFirstClick(tokenId: String, visitor: String?, expires: Date, now: Date = Date()) -> Bool {
        let key = (visitor ?? Self.anonymous) + "|" + tokenId
        return lock.withLock {
            if let until = seen.peek(key), until > now { return false }
            dropExpired(now: now)
            seen.set(key, expires, cost: key.utf8.count + 48)
            return true
        }
    }

    /// How many clicks are remembered now.
    public var count: Int { lock.withLock { seen.count } }

    /// Drops a few expired entries from the least recent end (each call does a bounded amount of work).
    private func dropExpired(now: Date) {
        for _ in 0..<4 {
            guard let oldest = seen.leastRecent, oldest.value <= now else { return }
            seen.remove(oldest.key)
        }
    }
}
