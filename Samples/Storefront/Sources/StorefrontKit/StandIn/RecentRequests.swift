/// What the stand-in vendor keeps of the tracking requests it receives: every one counted, the most
/// recent kept whole in a ring of at most ``capacity`` requests and ``maxBytes`` bytes of bodies (the
/// oldest go first; a body larger than ``maxBytes`` alone is counted and not kept).
public struct RecentRequests: Sendable {
    /// Totals since the start, whether the requests are still kept or not.
    public struct Counts: Sendable, Hashable {
        /// Tracking requests received, by vendor (`segmentify`, `reteno`).
        public var requests: [String: Int] = [:]
        /// Their body bytes in all.
        public var bytes = 0
        /// Requests no longer kept (pushed out of the ring, or too large to keep).
        public var dropped = 0
    }

    /// The most requests kept.
    public let capacity: Int
    /// The most body bytes kept.
    public let maxBytes: Int
    private var ring: [(request: StandInVendor.Received, bytes: Int)?]
    private var start = 0
    private var kept = 0
    /// The body bytes kept now.
    public private(set) var keptBytes = 0
    /// The totals.
    public private(set) var counts = Counts()

    /// An empty record with these bounds (each at least 1).
    public init(capacity: Int, maxBytes: Int) {
        self.capacity = max(1, capacity)
        self.maxBytes = max(1, maxBytes)
        ring = Array(repeating: nil, count: self.capacity)
    }

    /// Counts `request` and keeps it, dropping the oldest kept ones as the bounds need.
    mutating func append(_ request: StandInVendor.Received, bytes: Int) {
        counts.requests[request.vendor, default: 0] += 1
        counts.bytes += bytes
        guard bytes <= maxBytes else {
            counts.dropped += 1
            return
        }
        while kept > 0 && (kept == capacity || keptBytes + bytes > maxBytes) { dropOldest() }
        ring[(start + kept) % capacity] = (request, bytes)
        kept += 1
        keptBytes += bytes
    }

    /// The kept requests, oldest first.
    public var requests: [StandInVendor.Received] {
        (0..<kept).compactMap { ring[(start + $0) % capacity]?.request }
    }

    /// How many requests are kept now.
    public var count: Int { kept }

    private mutating func dropOldest() {
        keptBytes -= ring[start]?.bytes ?? 0
        ring[start] = nil
        start = (start + 1) % capacity
        kept -= 1
        counts.dropped += 1
    }
}
