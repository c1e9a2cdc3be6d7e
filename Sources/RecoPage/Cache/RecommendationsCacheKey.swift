import RecoKit
import RecoVendors

/// What determines a vendor's answer when it is the same for many visitors: the vendor, the kind of
/// request (`PRODUCT_VIEW`, `recoms`), the product or category it starts from, the algorithm or
/// variant, and optionally the visitor's segment (for example their Bloomreach real-time segments), so
/// that visitors in different segments never see each other's blocks.
///
/// ```swift
/// let key = RecommendationsCacheKey(vendor: .reteno, kind: "recoms", subject: "product:240-LV09",
///                                   variant: "r1105v1480", segment: RecommendationsCacheKey.segment(segmentIds))
/// ```
public struct RecommendationsCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The vendor asked.
    public var vendor: Vendor
    /// The kind of request (`PRODUCT_VIEW`, `PAGE_VIEW`, `recoms`).
    public var kind: String
    /// What the request starts from: `product:<id>`, `category:<name>`, or empty.
    public var subject: String
    /// The algorithm or variant asked for, when the request names one.
    public var variant: String?
    /// The visitor's segment, when the answer depends on it.
    public var segment: String?

    /// A key.
    public init(vendor: Vendor, kind: String, subject: String, variant: String? = nil, segment: String? = nil) {
        self.vendor = vendor
        self.kind = kind
        self.subject = subject
        self.variant = variant
        self.segment = segment
    }

    /// One segment value for a set of segment ids: sorted, without duplicates, so the order in which a
    /// vendor lists them does not split the cache.
    public static func segment(_ ids: some Sequence<String>) -> String {
        Set(ids).sorted().joined(separator: ",")
    }

    /// The segment value for a visitor's Bloomreach real-time segments: every category's segments, as
    /// `category:segmentationId/id`, sorted.
    public static func segment(_ segments: CustomerSegments) -> String {
        segment(segments.categories.flatMap { category, list in list.map { "\(category):\($0)" } })
    }

    public var description: String {
        var text = "\(vendor)/\(kind)/\(subject)"
        if let variant { text += "/\(variant)" }
        if let segment { text += " segment \(segment)" }
        return text
    }
}

extension RetenoRecomsRequest {
    /// The cache key of this request's answer: its variant and the products or category it starts
    /// from, with `segment` when the answer depends on the visitor's segment.
    ///
    /// Filters and fields are part of the key too (as the subject), since they change the answer.
    public func cacheKey(segment: String? = nil) -> RecommendationsCacheKey {
        var subject = productIds.isEmpty ? "category:\(category ?? "")" : "product:" + productIds.joined(separator: ",")
        if !filters.isEmpty { subject += " filters:" + filters.map { "\($0.name)=\($0.values.joined(separator: "|"))" }.joined(separator: ";") }
        if let list = fields.fields { subject += " fields:" + list.joined(separator: ",") }
        return RecommendationsCacheKey(vendor: .reteno, kind: "recoms", subject: subject, variant: variantId.description, segment: segment)
    }
}
