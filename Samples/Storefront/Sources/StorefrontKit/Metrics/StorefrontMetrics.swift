import CoreMetrics
import Hummingbird
import Prometheus
import RecoKitMetrics
import RecoTracking

/// The storefront's metrics, served at `GET /metrics` in Prometheus's text format: RecoKitMetrics'
/// ``RecoKitMetrics/TrackingMetrics`` (each tracker's deliveries, pending events and the oldest one's
/// age) and ``RecoKitMetrics/PageMetrics`` (each vendor's answers and which step of the fallback chain
/// served each block), made by a swift-prometheus `PrometheusMetricsFactory` over a registry of its own.
///
/// No process-wide `MetricsSystem.bootstrap`: the factory is given to both, so two storefronts in one
/// process (the tests) keep their figures apart. The trackers' statistics are read at each scrape, so
/// the gauges are as of the request.
///
/// ```swift
/// let metrics = StorefrontMetrics()
/// let tracking = try StorefrontTracking(directory: journal, settings: settings, observer: metrics.tracking)
/// metrics.watch(tracking)
/// let source = RecommendationSource(settings: settings, observer: metrics.pages)
/// ```
public final class StorefrontMetrics: Sendable {
    /// Where every metric is kept, and what `GET /metrics` writes out.
    public let registry: PrometheusCollectorRegistry
    /// The trackers' metrics (`recokit_tracking_…`); give it to ``StorefrontTracking`` as its observer.
    public let tracking: TrackingMetrics
    /// The pages' metrics (`recokit_page_…`); give it to ``RecommendationSource`` as its observer.
    public let pages: PageMetrics

    /// Metrics kept in `registry` (a new one by default).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Request bodies are bytes, not the factory's default buckets (5 to 10,000).
        factory.valueHistogramBuckets["recokit_tracking_request_body_bytes"] = [1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304]
        tracking = TrackingMetrics(factory: factory)
        pages = PageMetrics(factory: factory)
    }

    /// Reads both trackers' statistics at each scrape from now on.
    public func watch(_ trackers: StorefrontTracking) {
        for tracker in trackers.trackers { tracking.watch(tracker) }
    }

    /// Every metric in Prometheus's text format (version 0.0.4), the trackers' statistics read now.
    public func exposition() -> String {
        tracking.update()
        return registry.emitToString()
    }

    /// `GET /metrics`'s answer.
    func response() -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: exposition())))
    }
}
