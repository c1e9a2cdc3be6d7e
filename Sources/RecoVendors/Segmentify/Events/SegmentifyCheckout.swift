import Foundation
import RecoKit

/// Segmentify `CHECKOUT`, in its four steps: view basket, customer information, payment information,
/// purchase. Send the same basket at every step, changing only the step.
///
/// ```swift
/// let basket = [SegmentifyBasketProduct(productId: "25799809929", price: 78, quantity: 1)]
/// let purchase = SegmentifyCheckout(step: .purchase, totalPrice: 78, products: basket, orderNo: "12313", common: common)
/// ```
public struct SegmentifyCheckout: SegmentifyEvent {
    /// The wire name, `CHECKOUT`.
    public static let eventName = "CHECKOUT"
    /// Errors name fields as `checkout.<field>`.
    public static let fieldPrefix = "checkout"

    /// Where in the funnel.
    public enum Step: String, Sendable, Hashable, CaseIterable {
        /// The visitor views the basket (`basket`).
        case viewBasket = "basket"
        /// The visitor enters customer information (`customer`).
        case customerInfo = "customer"
        /// The visitor enters payment information (`payment`).
        case paymentInfo = "payment"
        /// The purchase succeeded (`purchase`).
        case purchase
    }

    /// Where in the funnel (mandatory).
    public var step: Step
    /// The basket's total with taxes, shipping and discounts (mandatory).
    public var totalPrice: Decimal
    /// The basket's products (mandatory, at least one); sent as `productList`.
    public var products: [SegmentifyBasketProduct]
    /// Your order id: only for the purchase step.
    public var orderNo: String?
    /// A link back to the basket, for cart-abandonment campaigns (basket, customer and payment steps).
    public var cartUrl: String?
    /// The fields every event shares.
    public var common: SegmentifyCommonFields

    /// A checkout step.
    public init(step: Step, totalPrice: Decimal, products: [SegmentifyBasketProduct], orderNo: String? = nil,
                cartUrl: String? = nil, common: SegmentifyCommonFields) {
        self.step = step
        self.totalPrice = totalPrice
        self.products = products
        self.orderNo = orderNo
        self.cartUrl = cartUrl
        self.common = common
    }

    /// The event\'s own fields, checked against the guide.
    public func eventFields() throws(SegmentifyEventError) -> [String: JSONValue] {
        try SegmentifyFieldRules.amount(totalPrice, "checkout.totalPrice")
        guard !products.isEmpty else { throw .missing("checkout.products") }
        var list: [JSONValue] = []
        for (index, product) in products.enumerated() { list.append(try product.json(at: "checkout.products[\(index)]")) }
        var fields: [String: JSONValue] = ["step": .string(step.rawValue), "totalPrice": SegmentifyFieldRules.number(totalPrice),
                                           "productList": .array(list)]
        if let orderNo {
            guard step == .purchase else {
                throw .conflict("checkout.orderNo", "only the purchase step carries an order number, not \(step.rawValue)")
            }
            try SegmentifyFieldRules.text(orderNo, "checkout.orderNo")
            fields["orderNo"] = .string(orderNo)
        }
        if let cartUrl {
            try SegmentifyFieldRules.url(cartUrl, "checkout.cartUrl")
            fields["cartUrl"] = .string(cartUrl)
        }
        return fields
    }
}

/// A product in the basket of a ``SegmentifyCheckout``.
public struct SegmentifyBasketProduct: Sendable, Hashable {
    /// The product (mandatory); must match the product view's id.
    public var productId: String
    /// The unit price; the catalogue's when absent.
    public var price: Decimal?
    /// The price's currency (three letters); the catalogue's when absent.
    public var currency: String?
    /// How many; 1 when absent. Sent as text, as the guide types it.
    public var quantity: Decimal?

    /// A basket product.
    public init(productId: String, price: Decimal? = nil, currency: String? = nil, quantity: Decimal? = nil) {
        self.productId = productId
        self.price = price
        self.currency = currency
        self.quantity = quantity
    }

    func json(at field: String) throws(SegmentifyEventError) -> JSONValue {
        try SegmentifyFieldRules.text(productId, "\(field).productId")
        var object: [String: JSONValue] = ["productId": .string(productId)]
        if let price {
            try SegmentifyFieldRules.amount(price, "\(field).price")
            object["price"] = SegmentifyFieldRules.number(price)
        }
        if let currency {
            try SegmentifyFieldRules.currency(currency, "\(field).currency")
            object["currency"] = .string(currency)
        }
        if let quantity {
            try SegmentifyFieldRules.quantity(quantity, "\(field).quantity")
            object["quantity"] = .string(quantity.description)
        }
        return .object(object)
    }
}
