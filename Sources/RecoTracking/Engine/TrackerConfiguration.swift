import Foundation

/// How a ``Tracker`` stores and delivers.
///
/// ```swift
/// var configuration = TrackerConfiguration(journal: URL(fileURLWithPath: "/var/lib/shop/tracking"))
/// configuration.durability = .strict
/// ```
public struct TrackerConfiguration: Sendable {
    /// The journal's directory (created if missing); nil only with ``Durability/memory``.
    public var journal: URL?
    /// When an accepted event is on disk. Default ``Durability/batched``.
    public var durability: Durability
    /// The journal's size limit; `track` throws ``TrackingError/queueFull`` beyond it. Default 512 MiB.
    public var maxJournalBytes: Int
    /// Segment file size before a new one starts. Default 8 MiB.
    public var segmentBytes: Int
    /// The longest an event waits for its batch to fill. Default 1 s.
    public var flushInterval: Duration
    /// Most requests in flight to the destination. Default 4.
    public var maxConcurrentRequests: Int
    /// Per-request timeout. Default 10 s.
    public var requestTimeout: Duration
    /// Backoff between retries.
    public var retryPolicy: RetryPolicy
    /// Smallest interval between two flushes asked by `forcePush`. Default 1 s.
    public var forcePushInterval: Duration
    /// The longest an idle sender sleeps before it looks at the journal on its own. Senders wake at once
    /// when appends fill a batch, on a commit, a flush and shutdown, and when the oldest event's
    /// ``flushInterval`` ends; this only bounds a wake-up that would be missed otherwise. Default 1 s.
    public var idlePollInterval: Duration
    /// Caps the destination's own batch size, if smaller.
    public var maxBatchEvents: Int?

    /// A configuration; pass nil and ``Durability/memory`` for a tracker without files.
    public init(journal: URL?, durability: Durability = .batched) {
        self.journal = journal
        self.durability = durability
        maxJournalBytes = 512 * 1024 * 1024
        segmentBytes = 8 * 1024 * 1024
        flushInterval = .seconds(1)
        maxConcurrentRequests = 4
        requestTimeout = .seconds(10)
        retryPolicy = RetryPolicy()
        forcePushInterval = .seconds(1)
        idlePollInterval = .seconds(1)
    }
}
