import Foundation
import RecoKit
import RecoHTTP
import RecoVendors

/// One vendor's recommendations for a page: the HTTP request to send, how to decode its answer, and
/// whether the answer may be shared between visitors (cached) or is personal.
///
/// Build one with ``segmentify(_:limits:sharing:)`` or ``reteno(_:title:limits:sharing:)``, or with
/// ``init(vendor:http:sharing:decode:)`` for a vendor of your own.
///
/// ```swift
/// let reteno = RecommendationsRequest.reteno(recoms, title: "Customers also viewed",
///                                            sharing: .shared(recoms.cacheKey()))
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
    let decode: @Sendable (Data) throws(PayloadError) -> Recommendations<RawProduct>

    /// A request to `vendor` whose answer `decode` turns into widgets of raw products.
    public init(vendor: Vendor, http: VendorRequest, sharing: Sharing = .personal,
                decode: @escaping @Sendable (Data) throws(PayloadError) -> Recommendations<RawProduct>) {
        self.vendor = vendor
        self.http = http
        self.sharing = sharing
        self.decode = decode
    }

    /// The cache key, or nil when the request is personal.
    public var cacheKey: RecommendationsCacheKey? {
        if case .shared(let key) = sharing { return key }
        return nil
    }

    /// Segmentify's blocks for a page's events, decoded with ``SegmentifyRecommendations`` in the
    /// request's language. Personal unless you say otherwise: Segmentify's answers usually depend on
    /// the visitor (`userId`), so share only blocks whose algorithm does not.
    public static func segmentify(_ request: SegmentifyRecommendationsRequest, limits: ReplyLimits = .default,
                                  sharing: Sharing = .personal) -> RecommendationsRequest {
        let language = request.language
        return RecommendationsRequest(vendor: .segmentify, http: request.request, sharing: sharing) { (data: Data) throws(PayloadError) in
            try SegmentifyRecommendations.decode(data, language: language, limits: limits)
        }
    }

    /// Reteno's recommendations of one variant, decoded with ``RetenoRecoms`` into one widget titled `title`.
    public static func reteno(_ request: RetenoRecomsRequest, title: String = "", limits: ReplyLimits = .default,
                              sharing: Sharing = .personal) -> RecommendationsRequest {
        let variant = request.variantId
        return RecommendationsRequest(vendor: .reteno, http: request.request, sharing: sharing) { (data: Data) throws(PayloadError) in
            try RetenoRecoms.decode(data, variantId: variant, title: title, limits: limits)
        }
    }
}
