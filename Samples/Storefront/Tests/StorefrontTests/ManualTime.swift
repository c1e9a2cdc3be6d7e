import Foundation
import RecoPage
import RecoTracking

/// Time a test moves by hand: the cache's clock (starting at zero), and a tracking clock that reads the
/// real time plus how far the test moved it (the trackers still wait in real time), so that the age of
/// what is pending grows by hours without a test waiting for them.
final class ManualTime: @unchecked Sendable {
    private let lock = NSLock()
    private var moved = Duration.zero

    /// The cache's clock: how far the test moved it.
    var cacheClock: CacheClock { CacheClock { [self] in lock.withLock { moved } } }

    /// The trackers' clock: now, plus how far the test moved it.
    var trackingClock: any TrackingClock { Tracking(time: self) }

    /// Moves both clocks on by `duration`.
    func advance(_ duration: Duration) { lock.withLock { moved += duration } }

    private struct Tracking: TrackingClock {
        let time: ManualTime

        func now() -> Date {
            let (seconds, attoseconds) = time.lock.withLock { time.moved }.components
            return Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        }

        func continuousTime() -> Duration { SystemTrackingClock().continuousTime() }

        func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
    }
}
