/// A least-recently-used memory bounded both by how many entries it holds and by how many bytes they are
/// reckoned to take: putting an entry in drops the least recently used ones until both bounds hold again.
/// An entry whose own cost is over the byte bound is not kept at all.
///
/// Not thread-safe: its owner keeps it behind a lock. Every operation is O(1) (a dictionary and a doubly
/// linked list threaded through it by key).
struct BoundedLRU<Key: Hashable, Value> {
    private struct Node {
        var value: Value
        var cost: Int
        var newer: Key?
        var older: Key?
    }

    /// The most entries kept.
    let maxCount: Int
    /// The most bytes kept, by the costs given to ``set(_:_:cost:)``.
    let maxBytes: Int
    private var nodes: [Key: Node] = [:]
    private var newest: Key?
    private var oldest: Key?
    /// The bytes held now (the sum of the costs of the entries).
    private(set) var bytes = 0
    /// How many entries were dropped to keep within the bounds, since the start.
    private(set) var evictions = 0

    /// An empty memory; both bounds are at least 1.
    init(maxCount: Int, maxBytes: Int) {
        self.maxCount = max(1, maxCount)
        self.maxBytes = max(1, maxBytes)
    }

    /// How many entries are kept now.
    var count: Int { nodes.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func get(_ key: Key) -> Value? {
        guard nodes[key] != nil else { return nil }
        moveToNewest(key)
        return nodes[key]?.value
    }

    /// The value for `key`, leaving the order as it is.
    func peek(_ key: Key) -> Value? { nodes[key]?.value }

    /// Keeps `value` under `key` as the most recently used, reckoned at `cost` bytes; then drops the
    /// least recently used entries until both bounds hold. Returns false when `cost` alone is over the
    /// byte bound (nothing is kept, and an old entry under `key` is removed).
    @discardableResult
    mutating func set(_ key: Key, _ value: Value, cost: Int) -> Bool {
        remove(key)
        let cost = max(0, cost)
        guard cost <= maxBytes else { return false }
        nodes[key] = Node(value: value, cost: cost, newer: nil, older: newest)
        if let newest { nodes[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        bytes += cost
        while nodes.count > maxCount || bytes > maxBytes, let victim = oldest, victim != key {
            remove(victim)
            evictions += 1
        }
        return true
    }

    /// Forgets `key`; returns its value if it was kept.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let node = nodes.removeValue(forKey: key) else { return nil }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        bytes -= node.cost
        return node.value
    }

    /// The least recently used entry, without touching it.
    var leastRecent: (key: Key, value: Value)? {
        guard let oldest, let node = nodes[oldest] else { return nil }
        return (oldest, node.value)
    }

    private mutating func moveToNewest(_ key: Key) {
        guard newest != key, let node = nodes[key] else { return }
        let cost = node.cost
        let value = node.value
        remove(key)
        nodes[key] = Node(value: value, cost: cost, newer: nil, older: newest)
        if let newest { nodes[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        bytes += cost
    }
}
