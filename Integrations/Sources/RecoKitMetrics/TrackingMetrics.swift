import CoreMetrics
import Foundation
import RecoTracking

/// A tracker's figures in swift-metrics, so that a Prometheus, StatsD or OpenTelemetry backend shows them
/// and alerts on them: what was accepted, refused, delivered, dead-lettered and retried, what is pending
/// and how old its oldest event is, whether delivery is paused, and each request's size and time.
///
/// ```swift
/// let metrics = TrackingMetrics()
/// var configuration = TrackerConfiguration()
/// configuration.observer = metrics                   // each request, as it ends
/// let tracker = Tracker(destination: segmentify, store: store, configuration: configuration)
/// metrics.watch(tracker)                             // its statistics, while `metrics.run()` runs
/// ```
///
/// Requests are recorded as they end; the rest is read from ``RecoTracking/Tracker/statistics`` every
/// ``interval`` while ``run()`` runs (a swift-service-lifecycle `Service`'s `run()`, stopped by
/// cancellation), and once more as it stops. The names and labels are in the DocC article
/// <doc:Metrics> and follow the Prometheus conventions (`_total` counters, `_seconds` and `_bytes` units);
/// every metric has the label `destination` (`segmentify`).
public final class TrackingMetrics: TrackingObserver, @unchecked Sendable {
    /// How often the statistics are read.
    public let interval: Duration
    private let factory: any MetricsFactory
    private let prefix: String
    private let lock = NSLock()
    private var watched: [Watched] = []
    private var requestMetrics: [String: RequestMetrics] = [:]

    /// Metrics named `PREFIX_tracking_…` (`recokit_tracking_events_delivered_total`), read every
    /// `interval`, made by `factory` (the process's `MetricsSystem` by default).
    public init(prefix: String = "recokit", interval: Duration = .seconds(5), factory: (any MetricsFactory)? = nil) {
        self.prefix = prefix
        self.interval = interval
        self.factory = factory ?? MetricsSystem.factory
    }

    /// Reads `tracker`'s statistics from now on.
    public func watch(_ tracker: Tracker) {
        let watched = Watched(tracker: tracker, prefix: prefix, factory: factory)
        lock.withLock { self.watched.append(watched) }
        watched.update()
    }

    /// Reads every watched tracker's statistics every ``interval`` until cancelled, then once more.
    public func run() async throws {
        while !Task.isCancelled {
            update()
            try? await Task.sleep(for: interval)
        }
        update()
    }

    /// Reads every watched tracker's statistics now.
    public func update() {
        for watched in lock.withLock({ watched }) { watched.update() }
    }

    public func requestEnded(_ request: TrackingRequestEnd, destination: String) {
        let metrics = lock.withLock { () -> RequestMetrics in
            if let known = requestMetrics[destination] { return known }
            let made = RequestMetrics(destination: destination, prefix: prefix, factory: factory)
            requestMetrics[destination] = made
            return made
        }
        metrics.record(request)
    }

    /// The histograms of one destination's requests.
    private struct RequestMetrics {
        let events: Recorder
        let bytes: Recorder
        let durations: [TrackingRequestEnd.Outcome: CoreMetrics.Timer]

        init(destination: String, prefix: String, factory: any MetricsFactory) {
            let dimensions = [("destination", destination)]
            events = Recorder(label: "\(prefix)_tracking_batch_events", dimensions: dimensions, aggregate: true, factory: factory)
            bytes = Recorder(label: "\(prefix)_tracking_request_body_bytes", dimensions: dimensions, aggregate: true, factory: factory)
            var durations: [TrackingRequestEnd.Outcome: CoreMetrics.Timer] = [:]
            for outcome in TrackingRequestEnd.Outcome.allCases {
                durations[outcome] = CoreMetrics.Timer(label: "\(prefix)_tracking_request_duration_seconds",
                                                       dimensions: dimensions + [("outcome", outcome.rawValue)], preferredDisplayUnit: .seconds,
                                                       factory: factory)
            }
            self.durations = durations
        }

        func record(_ request: TrackingRequestEnd) {
            events.record(request.events)
            bytes.record(request.bytes)
            let (seconds, attoseconds) = request.duration.components
            durations[request.outcome]?.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }

    /// One watched tracker: its gauges, and its counters with the values they were last given.
    private final class Watched: @unchecked Sendable {
        let tracker: Tracker
        let lock = NSLock()
        var last = TrackingStatistics()
        let accepted, delivered, deadLettered, retried, refusedInvalid, refusedQueueFull, damage, faults: Counter
        let pending, pendingBytes, oldestAge, paused: Gauge

        init(tracker: Tracker, prefix: String, factory: any MetricsFactory) {
            self.tracker = tracker
            let name = [("destination", tracker.destination.name)]
            func counter(_ label: String, _ extra: [(String, String)] = []) -> Counter {
                Counter(label: "\(prefix)_tracking_\(label)", dimensions: name + extra, factory: factory)
            }
            func gauge(_ label: String) -> Gauge { Gauge(label: "\(prefix)_tracking_\(label)", dimensions: name, factory: factory) }
            accepted = counter("events_accepted_total")
            delivered = counter("events_delivered_total")
            deadLettered = counter("events_dead_lettered_total")
            retried = counter("events_retried_total")
            refusedInvalid = counter("events_refused_total", [("reason", "invalid")])
            refusedQueueFull = counter("events_refused_total", [("reason", "store_full")])
            damage = counter("damage_total")
            faults = counter("delivery_faults_total")
            pending = gauge("pending_events")
            pendingBytes = gauge("pending_bytes")
            oldestAge = gauge("oldest_pending_age_seconds")
            paused = gauge("delivery_paused")
        }

        /// Reads the statistics under the lock, so that two updates at once (two scrapes) apply in the order
        /// they read: a snapshot read first and applied last would set `last` back, and the next update would
        /// count again what the other had counted.
        func update() {
            lock.withLock {
                let now = tracker.statistics
                accepted.increment(by: max(0, now.accepted - last.accepted))
                delivered.increment(by: max(0, now.delivered - last.delivered))
                deadLettered.increment(by: max(0, now.deadLettered - last.deadLettered))
                retried.increment(by: max(0, now.retried - last.retried))
                refusedInvalid.increment(by: max(0, now.refusedInvalid - last.refusedInvalid))
                refusedQueueFull.increment(by: max(0, now.refusedQueueFull - last.refusedQueueFull))
                damage.increment(by: max(0, now.damage.count - last.damage.count))
                faults.increment(by: max(0, now.deliveryDiskErrors - last.deliveryDiskErrors))
                last = now
                pending.record(now.pending)
                pendingBytes.record(now.journalBytes)
                let age = now.oldestPendingAge.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0
                oldestAge.record(age)
                paused.record(now.deliveryPaused ? 1 : 0)
            }
        }
    }
}
