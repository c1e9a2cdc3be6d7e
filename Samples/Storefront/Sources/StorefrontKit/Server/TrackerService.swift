import Logging
import RecoTracking
import ServiceLifecycle

/// A tracker is a service as it is: its `run()` delivers until cancelled, then drains.
extension Tracker: @retroactive Service {}

/// A service of the storefront's group that is cancelled as soon as the group's graceful shutdown
/// reaches it: a tracker then starts its drain at once (it stops on cancellation, which a group gives a
/// service only after its maximum graceful shutdown duration otherwise), and says what it delivered.
struct DrainedOnShutdown: Service {
    let tracker: Tracker
    let logger: Logger

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await tracker.run() }
        let done = tracker.statistics
        var line = "tracking \(tracker.destination.name): delivered \(done.delivered), pending \(done.pending), dead-lettered \(done.deadLettered)"
        if let error = done.lastError, done.pending > 0 { line += "; last error: \(error)" }
        logger.info("\(line)")
    }
}
