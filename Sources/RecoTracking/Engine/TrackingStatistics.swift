/// Counters of a tracker since it was made, plus what its store holds now.
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
    /// Events accepted and not yet delivered or dead-lettered (nor lost to damage): each impression of a
    /// page tracked with `Tracker.track(_: PageImpressions)` counts one, as it does in ``accepted`` and
    /// ``delivered``, though the journal holds the page as one record. A page delivered in part (its
    /// impressions go out in requests of the destination's size) counts what is left. After a restart,
    /// the impressions of a page that was delivered in part are sent again and counted pending again
    /// (delivery is at least once).
    public var pending = 0
    /// Bytes the store holds for the pending events (a journal's files, or memory).
    public var journalBytes = 0
    /// How long the first pending event has waited since it happened; nil when nothing is pending.
    public var oldestPendingAge: Duration?
    /// Whether delivery is paused: the destination failed (a passing fault or a misconfiguration), and
    /// senders wait for a probe to find it answering again.
    public var deliveryPaused = false
    /// The disk's last error (a failed write or `sync`: `ENOSPC`, `EIO`…), kept until a later write and
    /// `sync` succeed. While it is set in batched durability, `track` refuses events with it.
    public var diskError: String?
    /// Disk errors met while delivering, each got past by trying again, so nothing was lost: a batch that
    /// could not be read back (it is taken once it reads), dead letters that could not be written (the
    /// batch stays until they are), a checkpoint not written or a delivered segment not deleted (the next
    /// acknowledgement tries again; a restart before it sends those events again). A disk that fails reads
    /// is failing, even when a retry got past it: `recokit relay` exits 1 for it.
    public var deliveryDiskErrors = 0
    /// The last of ``deliveryDiskErrors``, in the system's words.
    public var deliveryDiskError: String?
    /// Damage met while running: stretches of the journal that could not be read back, each naming the
    /// file, byte range and (where known) how many events it cost; their bytes are in `quarantine.log`.
    public var damage: [JournalRecoveryReport.Damage] = []

    /// All zero: what a tracker that has done nothing says.
    public init() {}

    public var description: String {
        var text = "accepted \(accepted), delivered \(delivered), retried \(retried), dead-lettered \(deadLettered), "
            + "refused (queue full) \(refusedQueueFull), refused (invalid) \(refusedInvalid), pending \(pending), journal bytes \(journalBytes)"
        if configurationFaults > 0 { text += ", configuration faults \(configurationFaults)" }
        if let diskError { text += ", disk error: \(diskError)" }
        if let deliveryDiskError { text += ", disk errors while delivering \(deliveryDiskErrors), the last: \(deliveryDiskError)" }
        if !damage.isEmpty { text += ", damage: " + damage.map(\.description).joined(separator: "; ") }
        if let lastError { text += ", last error: \(lastError)" }
        return text
    }
}
