import RecoKit

/// A list of the shop's own products (its best sellers, a category's top products) that fills a
/// vendor's place on a page when neither the vendor nor a kept answer can: the step of the fallback
/// chain before no block (``ServedBlock``).
///
/// Its products are raw products, as a vendor's are, so they are decoded into your model with the same
/// fields and filters and rendered with the same templates. Its block is marked as the shop's own
/// (`ShopBlock`): vendor `Vendor.shop`, instance and interaction ids `shop:<name>`
/// (`data-reco-vendor="shop" data-reco-instance-id="shop:best-sellers"` in the built-in templates), so an
/// interaction built from it is refused by every vendor's tracking destination; track it to a
/// destination of the shop's own where you want the shop's impressions.
///
/// ```swift
/// let bestSellers = ShopList(name: "best-sellers", title: "Our best sellers",
///                            products: [try RawProduct(fields: ["productId": "240-LV09", "name": "Gel-Kayano 30"])])
/// var request = RecommendationsRequest.reteno(recoms, sharing: .shared(recoms.cacheKey()))
/// request.fallback = [bestSellers]
/// ```
public struct ShopList: Sendable {
    /// The list's name, in the block's ids (`shop:<name>`): say what it holds (`best-sellers`,
    /// `category:shoes:top`).
    public var name: String
    /// The block's title.
    public var title: String
    /// The products, in the order shown.
    public var products: [RawProduct]

    /// A list named `name` (the block's ids are `shop:<name>`), titled `title`.
    public init(name: String, title: String, products: [RawProduct]) {
        self.name = name
        self.title = title
        self.products = products
    }

    /// The list as a block of raw products: vendor `Vendor.shop`, ids `shop:<name>`, each product at
    /// `$[index]` of the list (where a product that does not decode into your model is reported).
    public var widget: Widget<RawProduct> {
        let id = ShopBlock.instanceId(list: name)
        return Widget(vendor: .shop, instanceId: id, interactionId: id, title: title,
                      rawProducts: products.enumerated().map { ($0.element, JSONPath.root.appending(index: $0.offset)) })
    }
}
