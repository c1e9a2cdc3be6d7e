/// How long to wait before retrying: exponential backoff with full jitter, `Retry-After` as a floor.
///
/// Attempt n (1 for the first retry) waits a uniformly random time in
/// `0 ..< min(maximumDelay, initialDelay × 2^(n−1))`, then at least the vendor's `Retry-After`.
/// A misconfigured destination (wrong key, account or URL) waits ``configurationDelay`` between tries.
public struct RetryPolicy: Sendable, Hashable {
    /// The ceiling of the first retry's wait.
    public var initialDelay: Duration
    /// The largest ceiling.
    public var maximumDelay: Duration
    /// The wait after a configuration fault.
    public var configurationDelay: Duration

    /// A policy; the defaults are 0.5 s, 60 s and 60 s.
    public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(60),
                configurationDelay: Duration = .seconds(60)) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.configurationDelay = configurationDelay
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

    /// The wait before retry `attempt` (1-based), for a jitter in `0..<1` and the vendor's `Retry-After`.
    public func delay(attempt: Int, retryAfter: Duration?, jitter: Double) -> Duration {
        let jittered = ceiling(attempt: attempt) * min(max(jitter, 0), 1)
        guard let retryAfter else { return jittered }
        return max(jittered, retryAfter)
    }
}
