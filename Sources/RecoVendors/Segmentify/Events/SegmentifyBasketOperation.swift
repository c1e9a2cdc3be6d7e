import Foundation
import RecoKit

/// Segmentify `BASKET_OPERATIONS`: a product added to or removed from the basket.
///
/// ```swift
/// let add = SegmentifyBasketOperation(step: .add, productId: "25800400265", price: 358, quantity: 2, common: common)
/// ```
public struct SegmentifyBasketOperation: SegmentifyEvent {
    /// The wire name, `BASKET_OPERATIONS`.
    public static let eventName = "BASKET_OPERATIONS"
    /// Errors name fields as `basketOperation.<field>`.
    public static let fieldPrefix = "basketOperation"

    /// Added or removed.
    public enum Step: String, Sendable, Hashable, CaseIterable {
        /// `add`.
        case add
        /// `remove`.
        case remove
    }

    /// Added or removed (mandatory).
    public var step: Step
    /// The product (mandatory); must match the product view's id.
    public var productId: String
    /// The unit price; the catalogue's when absent.
    public var price: Decimal?
    /// How many; 1 when absent. Decimals are fine (2.3 kg). Sent as text, as the guide types it.
    public var quantity: Decimal?
    /// The fields every event shares.
    public var common: SegmentifyCommonFields

    /// A basket operation.
    public init(step: Step, productId: String, price: Decimal? = nil, quantity: Decimal? = nil, common: SegmentifyCommonFields) {
        self.step = step
        self.productId = productId
        self.price = price
        self.quantity = quantity
        self.common = common
    }

    /// The event\'s own fields, checked against the guide.
    public func eventFields() throws(SegmentifyEventError) -> [String: JSONValue] {
        try SegmentifyFieldRules.text(productId, "basketOperation.productId")
        var fields: [String: JSONValue] = ["step": .string(step.rawValue), "productId": .string(productId)]
        if let price {
            try SegmentifyFieldRules.amount(price, "basketOperation.price")
            fields["price"] = SegmentifyFieldRules.number(price)
        }
        if let quantity {
            try SegmentifyFieldRules.quantity(quantity, "basketOperation.quantity")
            fields["quantity"] = .string(quantity.description)
        }
        return fields
    }
}
