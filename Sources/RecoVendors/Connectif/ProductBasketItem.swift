import Foundation

/// One product line of a purchase, with the fields of Connectif's guide. Money is `Decimal`
/// (build it from text, `Decimal(string: "51.88")!`, not from a `Double` literal).
public struct ProductBasketItem: Hashable, Sendable {
    // Required.
    /// The product's id in the catalog.
    public var productId: String
    /// The product's name.
    public var name: String
    /// The price of one unit.
    public var unitPrice: Decimal
    /// How many units were bought (at least 1).
    public var quantity: Int
    /// The price of the line.
    public var price: Decimal

    // Optional.
    /// The product page (http or https).
    public var productDetailUrl: String?
    /// A description of the product.
    public var description: String?
    /// The product's image (http or https).
    public var imageUrl: String?
    /// The product's categories.
    public var categories: [String]?
    /// The product's tags.
    public var tags: [String]?
    /// The product's brand.
    public var brand: String?
    /// How many reviews the product has.
    public var reviewCount: Int?
    /// The product's rating.
    public var rating: Decimal?
    /// How many ratings the product has.
    public var ratingCount: Int?
    /// A thumbnail image (http or https).
    public var thumbnailUrl: String?
    /// The unit price before any discount.
    public var unitPriceOriginal: Decimal?
    /// The unit price without VAT.
    public var unitPriceWithoutVAT: Decimal?
    /// The discount, as an amount.
    public var discountedAmount: Decimal?
    /// The discount, as a percentage (0 to 100).
    public var discountedPercentage: Decimal?
    /// When the product was published.
    public var publishedAt: Date?
    /// A free field.
    public var customField1: String?
    /// A free field.
    public var customField2: String?
    /// A free field.
    public var customField3: String?

    /// A product line; the optional fields can also be set afterwards.
    public init(
        productId: String, name: String, unitPrice: Decimal, quantity: Int, price: Decimal,
        productDetailUrl: String? = nil, description: String? = nil, imageUrl: String? = nil,
        categories: [String]? = nil, tags: [String]? = nil, brand: String? = nil,
        reviewCount: Int? = nil, rating: Decimal? = nil, ratingCount: Int? = nil, thumbnailUrl: String? = nil,
        unitPriceOriginal: Decimal? = nil, unitPriceWithoutVAT: Decimal? = nil,
        discountedAmount: Decimal? = nil, discountedPercentage: Decimal? = nil, publishedAt: Date? = nil,
        customField1: String? = nil, customField2: String? = nil, customField3: String? = nil
    ) {
        self.productId = productId
        self.name = name
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.price = price
        self.productDetailUrl = productDetailUrl
        self.description = description
        self.imageUrl = imageUrl
        self.categories = categories
        self.tags = tags
        self.brand = brand
        self.reviewCount = reviewCount
        self.rating = rating
        self.ratingCount = ratingCount
        self.thumbnailUrl = thumbnailUrl
        self.unitPriceOriginal = unitPriceOriginal
        self.unitPriceWithoutVAT = unitPriceWithoutVAT
        self.discountedAmount = discountedAmount
        self.discountedPercentage = discountedPercentage
        self.publishedAt = publishedAt
        self.customField1 = customField1
        self.customField2 = customField2
        self.customField3 = customField3
    }
}
