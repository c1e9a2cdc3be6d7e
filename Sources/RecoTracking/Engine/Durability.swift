/// When an accepted event is safe on disk.
///
/// - ``strict``: `track` returns after the event's record is `fsync`ed. Concurrent callers share one
///   `fsync` (group commit), so throughput grows with concurrency. Nothing accepted is lost, even on
///   power loss. The calling thread waits in `fsync` (typically 0.2–5 ms), so keep strict tracking off
///   latency-critical paths or call it from many tasks at once.
/// - ``batched(every:)``: `track` returns once the record is in the journal's buffer; a background
///   commit writes and `fsync`s the buffer every interval (20 ms by default), on a thread of its own,
///   never one of Swift's cooperative threads. **Loss window:** if the
///   process is killed, or the machine loses power, events accepted during the last interval (plus the
///   time of one write and `fsync`) can be lost. Call ``Tracker/commit()`` to close the window at a
///   point of your choosing (`recokit relay` does so before every `accepted N` line).
/// - ``memory``: no files at all; everything is lost when the process ends. Opt-in, for tests and
///   benchmarks.
public enum Durability: Sendable, Hashable {
    /// `fsync` before `track` returns.
    case strict
    /// Group commit at the interval.
    case batched(every: Duration)
    /// No disk.
    case memory

    /// Batched with a 20 ms interval.
    public static let batched = Durability.batched(every: .milliseconds(20))
}
