/// Sees each request a tracker sends, for what its counters cannot say: how large batches are and how
/// long the vendor takes. Set one in ``TrackerConfiguration/observer``; a tracker without one does no
/// work for it. RecoKitMetrics (in the companion package `Integrations/`) implements it over
/// swift-metrics, with ``Tracker/statistics`` for the rest.
///
/// It is called on a sender's task after each request, so it must be quick and must not block.
public protocol TrackingObserver: Sendable {
    /// A request to `destination` ended: its events, its body's bytes, how long it took and what came of it.
    func requestEnded(_ request: TrackingRequestEnd, destination: String)
}

/// One request a tracker sent, as ``TrackingObserver`` sees it.
public struct TrackingRequestEnd: Sendable, Hashable {
    /// What came of a request.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The vendor stored the events.
        case delivered
        /// The vendor refused an event of the batch (it is bisected, then dead-lettered).
        case rejected
        /// The batch was too large (it is split).
        case tooLarge = "too_large"
        /// A passing fault: an error status, or no reply at all (sent again after a backoff).
        case retry
        /// The destination is misconfigured (a wrong key or address; delivery pauses).
        case misconfigured
    }

    /// Events in the request.
    public var events: Int
    /// Bytes of its body.
    public var bytes: Int
    /// From sending to the reply's end (or the error).
    public var duration: Duration
    /// What came of it.
    public var outcome: Outcome

    /// A request's end.
    public init(events: Int, bytes: Int, duration: Duration, outcome: Outcome) {
        self.events = events
        self.bytes = bytes
        self.duration = duration
        self.outcome = outcome
    }
}
