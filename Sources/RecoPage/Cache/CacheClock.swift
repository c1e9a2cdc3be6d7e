/// Where the cache reads the time: the continuous clock, or one your tests move by hand.
///
/// ```swift
/// import Synchronization
///
/// let time = Mutex(Duration.zero)   // any Sendable box
/// let clock = CacheClock { time.withLock { $0 } }
/// ```
public struct CacheClock: Sendable {
    /// The time now, as a duration since any fixed origin.
    public let now: @Sendable () -> Duration

    /// A clock reading `now`.
    public init(now: @escaping @Sendable () -> Duration) { self.now = now }

    /// The system's continuous clock (it does not jump when the wall clock is set).
    public static let continuous: CacheClock = {
        let origin = ContinuousClock.now
        return CacheClock { ContinuousClock.now - origin }
    }()
}
