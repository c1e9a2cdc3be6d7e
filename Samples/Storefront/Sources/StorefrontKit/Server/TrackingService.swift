import Logging
import RecoTracking
import ServiceLifecycle

/// The storefront's trackers as a service of the application's `ServiceGroup`: it waits for the group's
/// graceful shutdown (SIGTERM or SIGINT), then gives the trackers ``drain`` to deliver what they hold and
/// logs one summary per vendor; what is left stays in the journals for the next start.
///
/// Put it before the HTTP server in the group: services shut down in reverse order, so the server stops
/// taking pages (and finishes those in flight) before the trackers drain.
public struct TrackingService: Service {
    /// The trackers.
    public let tracking: StorefrontTracking
    /// How long shutting down may spend delivering.
    public let drain: Duration
    let logger: Logger

    /// A service draining `tracking` within `drain` on shutdown.
    public init(tracking: StorefrontTracking, drain: Duration, logger: Logger = Logger(label: "storefront.tracking")) {
        self.tracking = tracking
        self.drain = drain
        self.logger = logger
    }

    /// Waits for shutdown, then drains (also when the group is cancelled rather than shut down gracefully).
    public func run() async throws {
        try? await gracefulShutdown()
        let summaries = await tracking.shutdown(deadline: drain)
        for (name, summary) in summaries.sorted(by: { $0.key < $1.key }) {
            logger.info("tracking \(name): \(summary)")
        }
    }
}
