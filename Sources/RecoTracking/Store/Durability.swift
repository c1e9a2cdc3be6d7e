/// When an event a ``JournalStore`` accepted is safe on disk: what `track` promises when it returns.
///
/// - ``strict``: `track` returns after the event's record is `fsync`ed. Concurrent callers share one
///   `fsync` (group commit), so throughput grows with concurrency. Nothing accepted is lost, even on
///   power loss. The calling thread waits in `fsync` (typically 0.2–5 ms), so keep strict tracking off
///   latency-critical paths or call it from many tasks at once.
/// - ``batched(every:)``: `track` returns once the record is in the journal's buffer; the running
///   tracker commits (writes and `fsync`s) the buffer every interval (20 ms by default), on a thread of
///   its own, never one of Swift's cooperative threads. **Loss window:** if the process is killed, or the
///   machine loses power, events accepted during the last interval (plus the time of one write and
///   `fsync`) can be lost. Call ``Tracker/commit()`` to close the window at a point of your choosing.
/// - ``onCommit``: `track` returns once the record is in the buffer, and it is durable once a later
///   ``Tracker/commit()`` returns; nothing commits on its own. Records a failed commit carried are refused
///   (as in `strict`), never written later: what the caller was not told is durable, it may send again
///   without a duplicate. `recokit relay` commits the lines it read together, then acknowledges them.
/// - ``memory``: no files at all; everything is lost when the process ends. Opt-in, for tests and
///   benchmarks.
public enum Durability: Sendable, Hashable {
    /// `fsync` before `track` returns.
    case strict
    /// Group commit at the interval.
    case batched(every: Duration)
    /// Durable when the caller commits.
    case onCommit
    /// No disk.
    case memory

    /// Batched with a 20 ms interval.
    public static let batched = Durability.batched(every: .milliseconds(20))
}
