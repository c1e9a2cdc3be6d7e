import RecoKit

/// Told what a ``RecommendationsClient`` does for pages, per vendor: each request's answer (latency,
/// outcome, bytes), each budget missed, each cache miss, and which step of the fallback chain served
/// each block. The seam for metrics: a swift-metrics backend maps each observation to a counter or a
/// histogram (the table below), with no other knowledge of RecoKit.
///
/// Every requirement has an empty default, so an observer implements only what it records. The client
/// calls it on the task doing the work, synchronously: keep each call short (increment a counter,
/// record a value), and never wait in it. A client without an observer pays for none of this: no
/// clock is read, nothing is allocated and no lock is taken for observations.
///
/// ```swift
/// struct Counts: PageObserver {
///     let served: @Sendable (String, String) -> Void
///     func blockServed(_ block: ServedBlock) { served(block.vendor.rawValue, block.step.label) }
/// }
/// let cache = RecommendationsCache(timeToLive: .seconds(60))
/// let pages = RecommendationsClient(cache: cache, observer: Counts { vendor, step in print(vendor, step) })
/// ```
///
/// | observation | metric (Prometheus) | OpenTelemetry instrument | type | labels |
/// |---|---|---|---|---|
/// | ``vendorAnswered(_:)`` | `recokit_page_vendor_request_duration_seconds` | `recokit.page.vendor.request.duration` (s) | histogram | `vendor`, `outcome` |
/// | ``vendorAnswered(_:)`` | `recokit_page_vendor_answers_total` | `recokit.page.vendor.answers` | counter | `vendor`, `outcome` |
/// | ``vendorAnswered(_:)`` | `recokit_page_vendor_received_bytes_total` | `recokit.page.vendor.received` (By) | counter | `vendor` |
/// | ``budgetMissed(vendor:budget:)`` | `recokit_page_budget_misses_total` | `recokit.page.budget.misses` | counter | `vendor` |
/// | ``cacheMissed(vendor:joined:)`` | `recokit_page_cache_misses_total` | `recokit.page.cache.misses` | counter | `vendor`, `joined` |
/// | ``blockServed(_:)`` | `recokit_page_blocks_served_total` | `recokit.page.blocks.served` | counter | `vendor`, `step` |
///
/// Label values: `vendor` is `Vendor.rawValue` (`segmentify`; for a block the shop's list filled, the
/// vendor whose place it took); `outcome` is ``VendorAnswer/outcome`` (`ok`, or a ``NoWidgets/Kind/label``
/// such as `out_of_budget`); `step` is ``ServedBlock/Step/label`` (`fresh`, `cached`,
/// `stale_while_revalidate`, `stale_if_error`, `shop_fallback`, `none`); `joined` is `true` or `false`.
/// Cache hits are `step="cached"`, stale answers served `step=~"stale_.*"`, fallbacks served
/// `step="shop_fallback"`; blocks lost `step="none"`. Every label takes a handful of values: no id,
/// product or key is ever a label.
public protocol PageObserver: Sendable {
    /// A request to a vendor ended: with widgets, or with a ``NoWidgets`` kind. Once per request sent:
    /// a page's own (personal) fetch, which ends at the page's budget at the latest (then
    /// `out_of_budget`), or a shared fetch filling the cache, which ends at
    /// ``RecommendationsClient/sharedFetchTimeout`` at the latest, however many pages waited on it. A
    /// request that waited for its turn (``RecommendationsClient/maxInFlightPerVendor``) counts its wait.
    /// A shared fetch is observed once the cache holds its answer, or knows it failed: a page asking
    /// after the observation starts a fetch of its own rather than join the one that ended.
    func vendorAnswered(_ answer: VendorAnswer)

    /// A page stopped waiting for a vendor's answer at its budget and went on without it (then served
    /// a stale-if-error answer, the shop's list or no block: see ``blockServed(_:)``). Once per page
    /// and vendor; a shared fetch the page gave up on goes on, and is observed when it ends.
    func budgetMissed(vendor: Vendor, budget: Duration)

    /// A shared request found no answer the cache could serve at once (none kept, or one only good for
    /// stale-if-error): it started a fetch, or `joined` one already under way (single flight). Personal
    /// requests never ask the cache, and are not counted.
    func cacheMissed(vendor: Vendor, joined: Bool)

    /// A vendor's part of a page was served by a step of the fallback chain, or by none: once per part
    /// of every page, whether the page was rendered now or served as kept.
    func blockServed(_ block: ServedBlock)
}

extension PageObserver {
    /// Records nothing.
    public func vendorAnswered(_ answer: VendorAnswer) {}
    /// Records nothing.
    public func budgetMissed(vendor: Vendor, budget: Duration) {}
    /// Records nothing.
    public func cacheMissed(vendor: Vendor, joined: Bool) {}
    /// Records nothing.
    public func blockServed(_ block: ServedBlock) {}
}

/// How one request to a vendor ended (``PageObserver/vendorAnswered(_:)``).
public struct VendorAnswer: Hashable, Sendable, CustomStringConvertible {
    /// The vendor asked.
    public var vendor: Vendor
    /// Why it gave no widgets, or nil when it answered widgets.
    public var failure: NoWidgets.Kind?
    /// From the request's start (its wait for a turn included) to its answer or failure.
    public var duration: Duration
    /// The bytes of the reply's body received (0 when none came, or the transport stopped a reply too
    /// large).
    public var bytes: Int
    /// Whether this was a shared fetch, filling the cache for every page with the same key (else one
    /// page's own).
    public var shared: Bool

    /// An answer.
    public init(vendor: Vendor, failure: NoWidgets.Kind?, duration: Duration, bytes: Int, shared: Bool) {
        self.vendor = vendor
        self.failure = failure
        self.duration = duration
        self.bytes = bytes
        self.shared = shared
    }

    /// The outcome as a metric's label value: `ok`, or the failure's ``NoWidgets/Kind/label``.
    public var outcome: String { failure?.label ?? "ok" }

    /// `reteno ok in 12 ms, 4096 bytes (shared)`.
    public var description: String {
        "\(vendor) \(outcome) in \(NoWidgets.milliseconds(duration)), \(bytes) bytes" + (shared ? " (shared)" : "")
    }
}
