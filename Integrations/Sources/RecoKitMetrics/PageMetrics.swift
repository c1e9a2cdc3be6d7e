import CoreMetrics
import Foundation
import RecoPage

/// What a ``RecoPage/RecommendationsClient`` does for pages, per vendor, in swift-metrics: each vendor
/// request's time and outcome, the bytes received, the budgets missed, the cache's misses and which step
/// of the fallback chain served each block (cache hits, stale answers, the shop's lists, none).
///
/// ```swift
/// let client = RecommendationsClient(cache: cache, observer: PageMetrics())
/// ```
///
/// Every observation is recorded as it is made, on the task that made it (no background work). The
/// names and labels are in the DocC article <doc:Metrics> and follow the Prometheus conventions (`_total`
/// counters, `_seconds` and `_bytes` units); every metric has the label `vendor` (`reteno`). Cache hits
/// are `recokit_page_blocks_served_total{step="cached"}`, stale answers served `step=~"stale_.*"`,
/// fallbacks served `step="shop_fallback"`, blocks lost `step="none"`.
public final class PageMetrics: PageObserver, @unchecked Sendable {
    private let factory: any MetricsFactory
    private let prefix: String
    private let lock = NSLock()
    private var vendors: [Vendor: VendorMetrics] = [:]

    /// Metrics named `PREFIX_page_…` (`recokit_page_blocks_served_total`), made by `factory` (the
    /// process's `MetricsSystem` by default).
    public init(prefix: String = "recokit", factory: (any MetricsFactory)? = nil) {
        self.prefix = prefix
        self.factory = factory ?? MetricsSystem.factory
    }

    public func vendorAnswered(_ answer: VendorAnswer) {
        metrics(for: answer.vendor).answered(answer)
    }

    public func budgetMissed(vendor: Vendor, budget: Duration) {
        metrics(for: vendor).budgetMisses.increment()
    }

    public func cacheMissed(vendor: Vendor, joined: Bool) {
        let metrics = metrics(for: vendor)
        (joined ? metrics.cacheMissesJoined : metrics.cacheMisses).increment()
    }

    public func blockServed(_ block: ServedBlock) {
        metrics(for: block.vendor).served[block.step]?.increment()
    }

    /// The metrics of `vendor`, made the first time it is seen.
    private func metrics(for vendor: Vendor) -> VendorMetrics {
        lock.withLock {
            if let known = vendors[vendor] { return known }
            let made = VendorMetrics(vendor: vendor, prefix: prefix, factory: factory)
            vendors[vendor] = made
            return made
        }
    }

    /// One vendor's metrics, one per label value (every label takes a handful of values).
    private struct VendorMetrics {
        /// By outcome label (`ok`, or a `NoWidgets.Kind` label).
        let durations: [String: CoreMetrics.Timer]
        let answers: [String: Counter]
        let received: Counter
        let budgetMisses: Counter
        let cacheMisses, cacheMissesJoined: Counter
        let served: [ServedBlock.Step: Counter]
        /// Makes an outcome's timer and counter not made ahead (a `NoWidgets` kind added later).
        let makeOutcome: @Sendable (String) -> (CoreMetrics.Timer, Counter)

        static let outcomes = ["ok"] + NoWidgets.Kind.all.map(\.label)
        static let steps: [ServedBlock.Step] = [.fresh, .cached, .staleWhileRevalidate, .staleIfError, .shopFallback, .none]

        init(vendor: Vendor, prefix: String, factory: any MetricsFactory) {
            let name = [("vendor", vendor.rawValue)]
            func counter(_ label: String, _ extra: [(String, String)] = []) -> Counter {
                Counter(label: "\(prefix)_page_\(label)", dimensions: name + extra, factory: factory)
            }
            let makeOutcome: @Sendable (String) -> (CoreMetrics.Timer, Counter) = { outcome in
                (CoreMetrics.Timer(label: "\(prefix)_page_vendor_request_duration_seconds", dimensions: name + [("outcome", outcome)],
                                   preferredDisplayUnit: .seconds, factory: factory),
                 Counter(label: "\(prefix)_page_vendor_answers_total", dimensions: name + [("outcome", outcome)], factory: factory))
            }
            var durations: [String: CoreMetrics.Timer] = [:]
            var answers: [String: Counter] = [:]
            for outcome in Self.outcomes { (durations[outcome], answers[outcome]) = makeOutcome(outcome) }
            self.makeOutcome = makeOutcome
            self.durations = durations
            self.answers = answers
            received = counter("vendor_received_bytes_total")
            budgetMisses = counter("budget_misses_total")
            cacheMisses = counter("cache_misses_total", [("joined", "false")])
            cacheMissesJoined = counter("cache_misses_total", [("joined", "true")])
            var served: [ServedBlock.Step: Counter] = [:]
            for step in Self.steps { served[step] = counter("blocks_served_total", [("step", step.label)]) }
            self.served = served
        }

        func answered(_ answer: VendorAnswer) {
            let outcome = answer.outcome
            let (timer, counter) = answers[outcome].flatMap { counter in durations[outcome].map { ($0, counter) } } ?? makeOutcome(outcome)
            counter.increment()
            let (seconds, attoseconds) = answer.duration.components
            timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            if answer.bytes > 0 { received.increment(by: answer.bytes) }
        }
    }
}
