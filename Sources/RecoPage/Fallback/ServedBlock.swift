import RecoKit

/// Which step of the fallback chain served a vendor's part of a page, and why the steps before it did
/// not.
///
/// The chain, in order:
/// 1. the vendor's answer: fetched for this page (``Step/fresh``), or from the cache while fresh
///    (``Step/cached``) or within the stale-while-revalidate window while one refresh runs
///    (``Step/staleWhileRevalidate``);
/// 2. when the vendor fails (any ``NoWidgets``: an error, no answer within the budget, an answer that
///    does not decode), the last good answer the cache kept for the longer stale-if-error window
///    (``Step/staleIfError``; shared requests only, ``RecommendationsCache/staleIfError``);
/// 3. the shop's own lists given with the request (``Step/shopFallback``, ``RecommendationsRequest/fallback``);
/// 4. no block (``Step/none``).
///
/// ```swift
/// let part = await client.widgets(for: [reteno], as: Shoe.self, budget: .milliseconds(300))[0]
/// if part.served.failure != nil {
///     print(part.served)   // "reteno: shop fallback; passed over: fresh (reteno: answered HTTP 503), …"
/// }
/// ```
public struct ServedBlock: Sendable, CustomStringConvertible {
    /// A step of the chain; compare with the static members (`served.step == .staleIfError`).
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        private enum Base: UInt8, Sendable { case fresh, cached, staleWhileRevalidate, staleIfError, shopFallback, none }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The vendor's answer, fetched for this page (or by a fetch it joined).
        public static let fresh = Step(.fresh)
        /// The vendor's answer from the cache, within its time to live.
        public static let cached = Step(.cached)
        /// The vendor's answer from the cache past its time to live, within the stale-while-revalidate
        /// window, while one fetch refreshes it.
        public static let staleWhileRevalidate = Step(.staleWhileRevalidate)
        /// The last good answer kept for the stale-if-error window, because the vendor failed now.
        public static let staleIfError = Step(.staleIfError)
        /// The shop's own lists (``ShopList``), because the vendor failed and no answer was kept.
        public static let shopFallback = Step(.shopFallback)
        /// No block: every step failed.
        public static let none = Step(.none)

        /// Every step, in the chain's order (the vendor's answer first, in its three forms).
        public static let all: [Step] = [.fresh, .cached, .staleWhileRevalidate, .staleIfError, .shopFallback, .none]

        /// Whether this step served the vendor's own answer (fresh, cached or stale).
        public var isVendorAnswer: Bool { base != .shopFallback && base != .none }

        /// The name in the code's words (`staleIfError`).
        public var name: String {
            switch base {
            case .fresh: "fresh"
            case .cached: "cached"
            case .staleWhileRevalidate: "staleWhileRevalidate"
            case .staleIfError: "staleIfError"
            case .shopFallback: "shopFallback"
            case .none: "none"
            }
        }

        /// The name as a metric's label value, in snake case (`stale_if_error`).
        public var label: String {
            switch base {
            case .fresh: "fresh"
            case .cached: "cached"
            case .staleWhileRevalidate: "stale_while_revalidate"
            case .staleIfError: "stale_if_error"
            case .shopFallback: "shop_fallback"
            case .none: "none"
            }
        }

        /// The step in words (`stale-if-error`).
        public var description: String {
            switch base {
            case .fresh: "fresh"
            case .cached: "cached"
            case .staleWhileRevalidate: "stale-while-revalidate"
            case .staleIfError: "stale-if-error"
            case .shopFallback: "shop fallback"
            case .none: "none"
            }
        }
    }

    /// A step that was tried and did not serve, and why.
    public struct PassedOver: Hashable, Sendable, CustomStringConvertible {
        /// The step.
        public var step: Step
        /// Why it did not serve, in one line.
        public var reason: String

        /// A step passed over for `reason`.
        public init(step: Step, reason: String) {
            self.step = step
            self.reason = reason
        }

        public var description: String { "\(step) (\(reason))" }
    }

    /// The vendor whose part of the page this is (also when the shop's list filled it).
    public var vendor: Vendor
    /// The step that served it.
    public var step: Step
    /// Why the vendor's answer was not served: its failure now (for ``Step/staleIfError`` and later
    /// steps), or its answer that decoded to nothing in your model. Nil when the vendor's answer served.
    public var failure: NoWidgets?
    /// The steps tried before ``step`` that did not serve, in the chain's order, each with its reason.
    public var passedOver: [PassedOver]
    /// How old the answer served from the cache is (``Step/cached``, ``Step/staleWhileRevalidate``,
    /// ``Step/staleIfError``), when known.
    public var age: Duration?

    /// A report: `step` served `vendor`'s part, after `passedOver`.
    public init(vendor: Vendor, step: Step, failure: NoWidgets? = nil, passedOver: [PassedOver] = [], age: Duration? = nil) {
        self.vendor = vendor
        self.step = step
        self.failure = failure
        self.passedOver = passedOver
        self.age = age
    }

    /// `reteno: stale-if-error (answer 3600 s old); passed over: fresh (reteno: answered HTTP 503)`.
    public var description: String {
        var text = "\(vendor): \(step)"
        if let age { text += " (answer \(age.components.seconds) s old)" }
        if !passedOver.isEmpty { text += "; passed over: " + passedOver.map(\.description).joined(separator: ", ") }
        return text
    }
}
