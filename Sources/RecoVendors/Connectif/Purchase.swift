import Foundation

/// A completed purchase, as Connectif's "notify completed purchase" event describes it.
///
/// ```swift
/// let purchase = Purchase(purchaseId: "purchase-e341", cartId: "cart-0098", totalQuantity: 1,
///                         totalPrice: Decimal(string: "51.88")!,
///                         products: [ProductBasketItem(productId: "59a3", name: "Example Product",
///                                                      unitPrice: Decimal(string: "51.88")!, quantity: 1,
///                                                      price: Decimal(string: "51.88")!)],
///                         paymentMethod: "Credit Card", sourceType: .digitalStore)
/// try purchase.validate()
/// ```
public struct Purchase: Hashable, Sendable {
    // Required.
    /// The purchase's unique id.
    public var purchaseId: String
    /// The id of the cart the purchase came from.
    public var cartId: String
    /// How many units were bought, duplicates included: the sum of the products' quantities.
    public var totalQuantity: Int
    /// The purchase's total amount.
    public var totalPrice: Decimal
    /// The product lines (at least one).
    public var products: [ProductBasketItem]

    // Optional.
    /// When the purchase was made.
    public var purchaseDate: Date?
    /// The payment method.
    public var paymentMethod: String?
    /// The name of the source, for context (`source_name`).
    public var sourceName: String?
    /// Where the purchase happened (`source_type`).
    public var sourceType: PurchaseSourceType?

    /// A purchase; the optional fields can also be set afterwards.
    public init(
        purchaseId: String, cartId: String, totalQuantity: Int, totalPrice: Decimal, products: [ProductBasketItem],
        purchaseDate: Date? = nil, paymentMethod: String? = nil, sourceName: String? = nil, sourceType: PurchaseSourceType? = nil
    ) {
        self.purchaseId = purchaseId
        self.cartId = cartId
        self.totalQuantity = totalQuantity
        self.totalPrice = totalPrice
        self.products = products
        self.purchaseDate = purchaseDate
        self.paymentMethod = paymentMethod
        self.sourceName = sourceName
        self.sourceType = sourceType
    }
}
