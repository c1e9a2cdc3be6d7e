import Foundation

/// The time source of retries: what time it is and how to wait. Tests inject one that records sleeps
/// and advances at once, so a retry schedule can be checked exactly without waiting.
public protocol TrackingClock: Sendable {
    /// The current time.
    func now() -> Date
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
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

extension TrackingClock {
    /// A uniformly random fraction in `0..<1` for retry jitter; test clocks may fix it.
    public func jitter() -> Double { Double.random(in: 0..<1) }
}
