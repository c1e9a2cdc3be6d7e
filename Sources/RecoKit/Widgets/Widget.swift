/// One recommendation block: the campaign that produced it, and its products in order.
///
/// Decoders produce `Widget<RawProduct>`; ``Recommendations/decoded(as:fields:filters:)`` turns them
/// into widgets of your model, keeping each product's raw fields beside it for templates and tracking.
public struct Widget<Product: RecommendableProduct>: Sendable {
    /// The vendor that sent the block.
    public var vendor: Vendor
    /// The campaign's instance id (Segmentify `instanceId`; Reteno the `recomVariantId`).
    public var instanceId: String
    /// The id reported with impressions and widget views (Segmentify's `actionId`).
    public var interactionId: String
    /// The block's title, in the requested language when the vendor sends several.
    public var title: String
    /// The products in the order they are shown, each with its 1-based position.
    public var items: [WidgetItem<Product>]
    /// Where the block is in the payload.
    public var path: JSONPath

    public init(vendor: Vendor, instanceId: String, interactionId: String, title: String, items: [WidgetItem<Product>], path: JSONPath = .root) {
        self.vendor = vendor
        self.instanceId = instanceId
        self.interactionId = interactionId
        self.title = title
        self.items = items
        self.path = path
    }

    /// The products in order.
    public var products: [Product] { items.map(\.product) }

    /// The product with this id and its position, nil when the block does not hold it.
    public func item(productId: String) -> WidgetItem<Product>? { items.first { $0.product.productId == productId } }
}

/// A product in a widget, at its 1-based position, with the raw fields the vendor sent.
public struct WidgetItem<Product: RecommendableProduct>: Sendable {
    /// 1 for the first product shown.
    public var position: Int
    /// Your model.
    public var product: Product
    /// Every field the vendor sent (after field selection).
    public var raw: RawProduct
    /// Where the product is in the payload.
    public var path: JSONPath

    public init(position: Int, product: Product, raw: RawProduct, path: JSONPath) {
        self.position = position
        self.product = product
        self.raw = raw
        self.path = path
    }
}

extension Widget where Product == RawProduct {
    /// Makes a widget of raw products in order, numbering them from 1.
    public init(vendor: Vendor, instanceId: String, interactionId: String, title: String, rawProducts: [(RawProduct, JSONPath)], path: JSONPath = .root) {
        let items = rawProducts.enumerated().map { offset, entry in
            WidgetItem(position: offset + 1, product: entry.0, raw: entry.0, path: entry.1)
        }
        self.init(vendor: vendor, instanceId: instanceId, interactionId: interactionId, title: title, items: items, path: path)
    }
}
