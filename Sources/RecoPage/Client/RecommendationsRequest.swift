import Foundation
import RecoKit
import RecoHTTP
import RecoVendors

/// One vendor's recommendations for a page: the HTTP request to send, how to decode its answer, and
/// whether the answer may be shared between visitors (cached) or is personal.
///
/// Build one with ``segmentify(_:limits:sharing:fallback:)`` or ``reteno(_:title:limits:sharing:fallback:)``, or with
/// ``init(vendor:http:sharing:fallback:decode:)`` for a vendor of your own; give it the shop's own
/// lists to show in its place when the vendor fails and no answer of it is kept (``fallback``).
///
/// ```swift
/// let bestSellers = [try RawProduct(fields: ["productId": "240-LV09", "name": "Gel-Kayano 30"])]
/// var reteno = RecommendationsRequest.reteno(recoms, title: "Customers also viewed",
///                                            sharing: .shared(recoms.cacheKey()))
/// reteno.fallback = [ShopList(name: "best-sellers", title: "Our best sellers", products: bestSellers)]
/// ```
public struct RecommendationsRequest: Sendable {
    /// Whether an answer may serve other visitors.
    public enum Sharing: Hashable, Sendable {
        /// The answer is made for this visitor (the default): it never enters or comes from the cache.
        case personal
        /// The answer depends only on the key (vendor, request kind, product or category, variant,
        /// segment), so visitors with the same key may share it.
        case shared(RecommendationsCacheKey)
    }

    /// The vendor asked.
    public var vendor: Vendor
    /// The HTTP request sent.
    public var http: VendorRequest
    /// Whether the answer may be cached.
    public var sharing: Sharing
    /// The shop's own lists, shown in the vendor's place (as the shop's blocks: `ShopBlock`) when
    /// neither the vendor's answer nor a kept one can be: the fallback chain's last step before no
    /// block (``ServedBlock/Step/shopFallback``). None by default.
    public var fallback: [ShopList]
    let decode: @Sendable (Data) throws(PayloadError) -> Recommendations<RawProduct>

    /// A request to `vendor` whose answer `decode` turns into widgets of raw products, with the shop's
    /// lists to show when it fails (`fallback`).
    public init(vendor: Vendor, http: VendorRequest, sharing: Sharing = .personal, fallback: [ShopList] = [],
                decode: @escaping @Sendable (Data) throws(PayloadError) -> Recommendations<RawProduct>) {
        self.vendor = vendor
        self.http = http
        self.sharing = sharing
        self.fallback = fallback
        self.decode = decode
    }

    /// The cache key, or nil when the request is personal.
    public var cacheKey: RecommendationsCacheKey? {
        if case .shared(let key) = sharing { return key }
        return nil
    }

    /// Segmentify's blocks for a page's events, decoded with ``SegmentifyRecommendations`` in the
    /// request's language. Personal unless you say otherwise: Segmentify's answers usually depend on
    /// the visitor (`userId`), so share only blocks whose algorithm does not. `fallback`: the shop's lists
    /// to show when Segmentify fails (``fallback``).
    public static func segmentify(_ request: SegmentifyRecommendationsRequest, limits: ReplyLimits = .default,
                                  sharing: Sharing = .personal, fallback: [ShopList] = []) -> RecommendationsRequest {
        let language = request.language
        return RecommendationsRequest(vendor: .segmentify, http: request.request, sharing: sharing, fallback: fallback) { (data: Data) throws(PayloadError) in
            try SegmentifyRecommendations.decode(data, language: language, limits: limits)
        }
    }

    /// Reteno's recommendations of one variant, decoded with ``RetenoRecoms`` into one widget titled `title`;
    /// `fallback`: the shop's lists to show when Reteno fails (``fallback``).
    public static func reteno(_ request: RetenoRecomsRequest, title: String = "", limits: ReplyLimits = .default,
                              sharing: Sharing = .personal, fallback: [ShopList] = []) -> RecommendationsRequest {
        let variant = request.variantId
        return RecommendationsRequest(vendor: .reteno, http: request.request, sharing: sharing, fallback: fallback) { (data: Data) throws(PayloadError) in
            try RetenoRecoms.decode(data, variantId: variant, title: title, limits: limits)
        }
    }
}
