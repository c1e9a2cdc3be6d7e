import Foundation

/// How a ``Tracker`` delivers: batching, concurrency, timeouts, retries and stopping. Where the events
/// are kept is its store's business (``JournalStore``).
///
/// ```swift
/// var configuration = TrackerConfiguration()
/// configuration.requestTimeout = .seconds(5)
/// ```
public struct TrackerConfiguration: Sendable {
    /// The longest an event waits for its batch to fill before the batch goes out as it is. Default 1 s.
    public var flushInterval: Duration
    /// Most requests in flight to the destination. Default 4.
    public var maxConcurrentRequests: Int
    /// Per-request timeout, the whole reply included. Default 10 s.
    public var requestTimeout: Duration
    /// Backoff between retries.
    public var retryPolicy: RetryPolicy
    /// Smallest interval between two flushes asked by `forcePush`. Default 1 s.
    public var forcePushInterval: Duration
    /// The longest an idle sender sleeps before it looks at the store on its own. Senders wake at once
    /// when records fill a batch, on a commit, a flush and a stop, and when the oldest event's
    /// ``flushInterval`` ends; this only bounds a wake-up that would be missed otherwise (and, for a store
    /// that others append to, how long their records may wait unseen). Default 1 s.
    public var idlePollInterval: Duration
    /// Caps the destination's own batch size, if smaller.
    public var maxBatchEvents: Int?
    /// How long ``Tracker/run()`` goes on delivering once its task is cancelled; what is left stays in the
    /// store for the next run. Default 5 s.
    public var drainDeadline: Duration
    /// How long a claimed batch is this process's where several deliver (a shared store): past it, another
    /// process may claim it. Longer than a request with its retries may take. Default 2 minutes.
    public var lease: Duration
    /// How many times a batch may be claimed again after its delivery was cut short by the process
    /// stopping (``ClaimedBatch/attempts``) before it is dead-lettered instead of sent: a reply that stops
    /// the process every time it comes must not stop it for ever. Default 5.
    public var interruptedDeliveryLimit: Int
    /// Sees each request sent (its events, bytes, time and outcome), for metrics; none by default.
    public var observer: (any TrackingObserver)?

    /// The defaults.
    public init() {
        flushInterval = .seconds(1)
        maxConcurrentRequests = 4
        requestTimeout = .seconds(10)
        retryPolicy = RetryPolicy()
        forcePushInterval = .seconds(1)
        idlePollInterval = .seconds(1)
        drainDeadline = .seconds(5)
        lease = .seconds(120)
        interruptedDeliveryLimit = 5
    }
}
