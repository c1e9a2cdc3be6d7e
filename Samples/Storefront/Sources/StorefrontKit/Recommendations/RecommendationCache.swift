import Foundation
import RecoKit

/// Keeps a product page's decoded blocks for a while, so that pages within ``lifetime`` of each other
/// ask the vendors once. Off by default (`--cache-ttl`): a vendor's reply is made for one visitor, and
/// a cached one shows every visitor the first visitor's blocks (and their ids); use it only for blocks
/// that do not depend on the visitor (product-based algorithms). Impressions and clicks are still
/// tracked per visitor. Bounded: at most ``capacity`` products, the oldest entry goes first.
public final class RecommendationCache: @unchecked Sendable {
    /// How long blocks are kept.
    public let lifetime: Duration
    /// How many products' blocks are kept.
    public let capacity: Int
    private let lock = NSLock()
    private var entries: [String: (blocks: [Widget<StoreProduct>], expires: ContinuousClock.Instant)] = [:]

    /// A cache keeping blocks for `lifetime`.
    public init(lifetime: Duration, capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// The blocks for `productId`: cached ones while fresh, else `fetch`'s (kept only when not empty,
    /// so a vendor outage is not remembered).
    public func blocks(forProduct productId: String, fetch: () async -> [Widget<StoreProduct>]) async -> [Widget<StoreProduct>] {
        let now = ContinuousClock.now
        if let cached = lock.withLock({ entries[productId] }), cached.expires > now { return cached.blocks }
        let blocks = await fetch()
        guard !blocks.isEmpty else { return blocks }
        lock.withLock {
            if entries.count >= capacity, entries[productId] == nil {
                let oldest = entries.min { $0.value.expires < $1.value.expires }?.key
                oldest.map { entries[$0] = nil }
            }
            entries[productId] = (blocks, now + lifetime)
        }
        return blocks
    }
}
