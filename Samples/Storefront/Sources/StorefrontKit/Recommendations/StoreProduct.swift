import Foundation
import RecoKit

/// The storefront's own product model: what the shop needs of a recommended product, under its own
/// names. Vendors' field names are mapped by ``CodingKeys``; RecoKit's lenient decoder turns numeric
/// strings into `Decimal`, so both vendors' payloads fit.
public struct StoreProduct: RecommendableProduct, Hashable {
    /// The vendor's product id (tracked on clicks and impressions).
    public var productId: String
    /// The name shown.
    public var title: String
    /// The product page.
    public var pageURL: String?
    /// The price, exact.
    public var price: Decimal?
    /// Whether the shop can sell it now; a product the vendor marks out of stock is not shown.
    public var inStock: Bool?

    enum CodingKeys: String, CodingKey {
        case productId
        case title = "name"
        case pageURL = "url"
        case price
        case inStock
    }
}
