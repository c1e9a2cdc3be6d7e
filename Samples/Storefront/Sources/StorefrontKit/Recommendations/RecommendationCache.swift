import Foundation

/// Keeps a product page's rendered blocks for a while, so that pages within ``lifetime`` of each other
/// ask the vendors once and render once. Off by default (`--cache-ttl`): a vendor's reply is made for
/// one visitor, and a cached one shows every visitor the first visitor's blocks (and their ids); use it
/// only for blocks that do not depend on the visitor (product-based algorithms). Impressions,
/// widget-views and clicks are still tracked per visitor.
///
/// Pages that miss at the same moment share one fetch. Bounded: at most ``capacity`` products and
/// ``maxBytes`` bytes of rendered HTML (a flood of product ids cannot grow it); the entry closest to
/// expiring goes first.
public final class RecommendationCache: @unchecked Sendable {
    /// How long blocks are kept.
    public let lifetime: Duration
    /// How many products' blocks are kept.
    public let capacity: Int
    /// How many bytes of rendered HTML are kept in all.
    public let maxBytes: Int
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var bytes = 0

    private enum Entry {
        case ready(RenderedBlocks, expires: ContinuousClock.Instant)
        case loading(Task<RenderedBlocks, Never>)
    }

    /// A cache keeping blocks for `lifetime`.
    public init(lifetime: Duration, capacity: Int = 10_000, maxBytes: Int = 64 << 20) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
        self.maxBytes = max(1, maxBytes)
    }

    /// The bytes of rendered HTML kept now.
    public var byteCount: Int { lock.withLock { bytes } }


    /// The blocks for `productId`: cached ones while fresh, else `fetch`'s (kept only when not empty,
    /// so a vendor outage is not remembered). A page arriving while another fetches waits for that fetch.
    public func blocks(forProduct productId: String, fetch: @escaping @Sendable () async -> RenderedBlocks) async -> RenderedBlocks {
        let now = ContinuousClock.now
        let (cached, task): (RenderedBlocks?, Task<RenderedBlocks, Never>?) = lock.withLock {
            switch entries[productId] {
            case .ready(let blocks, let expires) where expires > now:
                return (blocks, nil)
            case .loading(let task):
                return (nil, task)
            case .ready(let stale, _):
                bytes -= stale.html.utf8.count
                let task = Task { await fetch() }
                entries[productId] = .loading(task)
                return (nil, task)
            case nil:
                let task = Task { await fetch() }
                entries[productId] = .loading(task)
                return (nil, task)
            }
        }
        if let cached { return cached }
        guard let task else { return .none }
        let blocks = await task.value
        lock.withLock {
            guard case .loading(let loading) = entries[productId], loading == task else { return }
            guard !blocks.isEmpty, blocks.html.utf8.count <= maxBytes else {
                entries[productId] = nil
                return
            }
            entries[productId] = .ready(blocks, expires: ContinuousClock.now + lifetime)
            bytes += blocks.html.utf8.count
            while entries.count > capacity || bytes > maxBytes, evictOne(except: productId) {}
        }
        return blocks
    }

    /// Drops the entry closest to expiring (other than `productId`); false when there is none.
    private func evictOne(except productId: String) -> Bool {
        let victim = entries.filter { $0.key != productId }.min { lhs, rhs in
            switch (lhs.value, rhs.value) {
            case (.ready(_, let a), .ready(_, let b)): a < b
            case (.ready, .loading): true
            default: false
            }
        }?.key
        guard let victim else { return false }
        if case .ready(let blocks, _)? = entries.removeValue(forKey: victim) { bytes -= blocks.html.utf8.count }
        return true
    }
}
