/// How long to wait before retrying: exponential backoff with jitter, `Retry-After` as a floor.
///
/// Attempt n (1 for the first retry) waits a uniformly random time in `c/2 ..< c`, where
/// `c = min(maximumDelay, initialDelay × 2^(n−1))`, then at least the vendor's `Retry-After`, up to
/// ``longestRetryAfter``: a reply asking for a longer wait (a misconfigured proxy's, or a hostile one's
/// `Retry-After: 9223372036854775807`) is honoured for that long, then the destination is probed again.
/// While a destination fails, one sender probes it with one small request after each such wait and the
/// others hold their batches (see ``Tracker``), so ``maximumDelay`` bounds both the request rate
/// during an outage and how long delivery takes to resume after it: 2 s by default.
/// A misconfigured destination (wrong key, account or URL) waits ``configurationDelay`` between tries.
public struct RetryPolicy: Sendable, Hashable {
    /// The ceiling of the first retry's wait.
    public var initialDelay: Duration
    /// The largest ceiling: the longest wait between two probes of a failing destination, and so the
    /// longest delivery takes to resume once the vendor is back (plus one request).
    public var maximumDelay: Duration
    /// The wait after a configuration fault.
    public var configurationDelay: Duration
    /// The longest a vendor's `Retry-After` makes delivery wait (10 minutes by default).
    public var longestRetryAfter: Duration

    /// A policy; the defaults are 0.5 s, 2 s, 60 s and 10 minutes.
    public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(2),
                configurationDelay: Duration = .seconds(60), longestRetryAfter: Duration = .seconds(600)) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.configurationDelay = configurationDelay
        self.longestRetryAfter = longestRetryAfter
    }

    /// The ceiling of attempt `attempt`'s wait, before jitter.
    public func ceiling(attempt: Int) -> Duration {
        var ceiling = initialDelay
        var step = 1
        while step < attempt, ceiling < maximumDelay {
            ceiling *= 2
            step += 1
        }
        return min(ceiling, maximumDelay)
    }

    /// The wait before retry `attempt` (1-based), for a jitter in `0..<1` and the vendor's `Retry-After`:
    /// between half the ceiling (jitter 0) and the ceiling (jitter 1), never less than `Retry-After` (up
    /// to ``longestRetryAfter``).
    public func delay(attempt: Int, retryAfter: Duration?, jitter: Double) -> Duration {
        let jittered = ceiling(attempt: attempt) * (0.5 + min(max(jitter, 0), 1) / 2)
        guard let retryAfter else { return jittered }
        return max(jittered, min(retryAfter, longestRetryAfter))
    }
}
