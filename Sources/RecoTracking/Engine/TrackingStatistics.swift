/// Counters of a tracker since it started, plus the journal's current state.
public struct TrackingStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Events accepted by `track`.
    public var accepted = 0
    /// Events the vendor stored (2xx).
    public var delivered = 0
    /// Event sends retried (each event of a retried batch counts once per retry).
    public var retried = 0
    /// Events dead-lettered (refused by the vendor or screened out).
    public var deadLettered = 0
    /// Events refused because the journal was full.
    public var refusedQueueFull = 0
    /// Events refused as invalid.
    public var refusedInvalid = 0
    /// Replies that said the destination is misconfigured (events kept, destination paused).
    public var configurationFaults = 0
    /// The last configuration fault or network error, for diagnosis.
    public var lastError: String?
    /// Events in the journal, not yet acknowledged.
    public var pending = 0
    /// Bytes of journal on disk (or in memory).
    public var journalBytes = 0

    public var description: String {
        var text = "accepted \(accepted), delivered \(delivered), retried \(retried), dead-lettered \(deadLettered), "
            + "refused (queue full) \(refusedQueueFull), refused (invalid) \(refusedInvalid), pending \(pending), journal bytes \(journalBytes)"
        if configurationFaults > 0 { text += ", configuration faults \(configurationFaults)" }
        if let lastError { text += ", last error: \(lastError)" }
        return text
    }
}

/// What ``Tracker/shutdown(deadline:)`` achieved.
public struct ShutdownSummary: Sendable, Hashable, CustomStringConvertible {
    /// Events delivered since the tracker started.
    public var delivered: Int
    /// Events left in the journal for the next run.
    public var pending: Int
    /// Events dead-lettered since the tracker started.
    public var deadLettered: Int

    /// A summary.
    public init(delivered: Int, pending: Int, deadLettered: Int) {
        self.delivered = delivered
        self.pending = pending
        self.deadLettered = deadLettered
    }

    public var description: String { "delivered \(delivered), pending \(pending), dead-lettered \(deadLettered)" }
}
