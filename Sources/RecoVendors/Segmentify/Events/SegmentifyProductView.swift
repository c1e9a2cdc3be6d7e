import Foundation
import RecoKit

/// Segmentify `PRODUCT_VIEW`: a visitor views a product. Also send a page view with category
/// ``SegmentifyPageCategory/productPage``.
///
/// Mandatory: `productId`, `title`, `url`, `image`, `category`, `price`. Everything else is optional and
/// sent only when set.
public struct SegmentifyProductView: SegmentifyEvent {
    /// The wire name, `PRODUCT_VIEW`.
    public static let eventName = "PRODUCT_VIEW"
    /// Errors name fields as `productView.<field>`.
    public static let fieldPrefix = "productView"

    /// The product's gender.
    public enum Gender: String, Sendable, Hashable, CaseIterable {
        /// `M`.
        case male = "M"
        /// `F`.
        case female = "F"
        /// `U`.
        case unisex = "U"
    }

    /// The product's id; must match basket, checkout and click events.
    public var productId: String
    /// The product's name.
    public var title: String
    /// The canonical URL.
    public var url: String
    /// The main image URL.
    public var image: String
    /// The hierarchical category (`Men > Sports > Shoes`).
    public var category: String
    /// The price.
    public var price: Decimal
    /// The price before a sale.
    public var oldPrice: Decimal?
    /// Stock status; Segmentify assumes in stock when absent.
    public var inStock: Bool?
    /// The mobile URL.
    public var mobileUrl: String?
    /// Extra-small, small, medium, large and extra-large image URLs (`imageXS` … `imageXL`).
    public var imageXS: String?, imageS: String?, imageM: String?, imageL: String?, imageXL: String?
    /// The brand.
    public var brand: String?
    /// The product's gender.
    public var gender: Gender?
    /// Colour options.
    public var colors: [String]?
    /// Size options.
    public var sizes: [String]?
    /// Custom labels, usable as recommendation filters.
    public var labels: [String]?
    /// `true` keeps Segmentify from updating its catalogue from this event.
    public var noUpdate: Bool?
    /// The fields every event shares.
    public var common: SegmentifyCommonFields

    /// A product view with the mandatory fields; set the optional ones as properties.
    public init(productId: String, title: String, url: String, image: String, category: String, price: Decimal,
                common: SegmentifyCommonFields) {
        self.productId = productId
        self.title = title
        self.url = url
        self.image = image
        self.category = category
        self.price = price
        self.common = common
    }

    /// The event\'s own fields, checked against the guide.
    public func eventFields() throws(SegmentifyEventError) -> [String: JSONValue] {
        typealias Rules = SegmentifyFieldRules
        try Rules.text(productId, "productView.productId")
        try Rules.text(title, "productView.title")
        try Rules.url(url, "productView.url")
        try Rules.url(image, "productView.image")
        try Rules.text(category, "productView.category")
        try Rules.amount(price, "productView.price")
        var fields: [String: JSONValue] = ["productId": .string(productId), "title": .string(title), "url": .string(url),
                                           "image": .string(image), "category": .string(category), "price": Rules.number(price)]
        if let oldPrice {
            try Rules.amount(oldPrice, "productView.oldPrice")
            fields["oldPrice"] = Rules.number(oldPrice)
        }
        for (key, value) in [("mUrl", mobileUrl), ("imageXS", imageXS), ("imageS", imageS), ("imageM", imageM),
                             ("imageL", imageL), ("imageXL", imageXL)] {
            guard let value else { continue }
            try Rules.url(value, "productView.\(key)")
            fields[key] = .string(value)
        }
        if let brand {
            try Rules.text(brand, "productView.brand")
            fields["brand"] = .string(brand)
        }
        if let inStock { fields["inStock"] = .bool(inStock) }
        if let gender { fields["gender"] = .string(gender.rawValue) }
        for (key, value) in [("colors", colors), ("sizes", sizes), ("labels", labels)] {
            guard let value else { continue }
            try Rules.list(value, "productView.\(key)")
            fields[key] = Rules.strings(value)
        }
        if let noUpdate { fields["noUpdate"] = .bool(noUpdate) }
        return fields
    }
}
