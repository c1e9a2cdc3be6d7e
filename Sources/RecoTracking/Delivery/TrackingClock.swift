import Foundation

/// The time source of retries: what time it is and how to wait. Tests inject one that records sleeps
/// and advances at once, so a retry schedule can be checked exactly without waiting.
public protocol TrackingClock: Sendable {
    /// The current time.
    func now() -> Date
    /// The time now as a duration since any fixed origin, on a clock that does not jump when the wall
    /// clock is set (an NTP step, a hardware clock kept in local time): what idle times are measured on.
    /// By default `now()`'s seconds since 1970, so that a test clock moved by hand stands for both.
    func continuousTime() -> Duration
    /// Waits `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
    /// A fraction in `0..<1` that scales a retry's wait (full jitter). Random by default.
    func jitter() -> Double
}

/// The real clock.
public struct SystemTrackingClock: TrackingClock {
    /// The real clock.
    public init() {}
    public func now() -> Date { Date() }
    /// The system's continuous clock since the first reading in this process.
    public func continuousTime() -> Duration { ContinuousClock.now - Self.origin }
    private static let origin = ContinuousClock.now
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

extension TrackingClock {
    /// The wall clock's seconds since 1970 (a clock that only tells `now()` stands for both).
    public func continuousTime() -> Duration { .seconds(now().timeIntervalSince1970) }
    /// A uniformly random fraction in `0..<1` for retry jitter; test clocks may fix it.
    public func jitter() -> Double { Double.random(in: 0..<1) }
}
