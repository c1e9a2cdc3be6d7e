/// A product model of yours that recommendations decode into.
///
/// Declare the fields you use, with your own `CodingKeys`; everything else the vendor sent stays
/// available in the widget's ``RawProduct`` (for templates, filters and later decoding).
///
/// ```swift
/// struct Recommendation: RecommendableProduct {
///     let productId: String
///     let name: String
///     let description: String?
///     let imageUrl: URL?
///     let price: Decimal
///     enum CodingKeys: String, CodingKey {
///         case productId, name, description = "descr", imageUrl, price
///     }
/// }
/// ```
public protocol RecommendableProduct: Decodable, Sendable {
    /// The vendor's identifier of the product; clicks and impressions are reported with it.
    var productId: String { get }
}
