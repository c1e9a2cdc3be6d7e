import Foundation

/// A validated purchase ready to send, with the context collected for it, and its JSON.
///
/// The purchase's fields keep the guide's names (`purchaseId`, `totalPrice`, `products[].unitPrice`,
/// `source_name`, `source_type`, …). Amounts are JSON numbers written from `Decimal`, digit for digit;
/// dates are ISO 8601 in UTC (`2025-03-14T09:26:53Z`); absent optional fields are left out. The guide
/// names no envelope, so the toolkit's is `{"type":"purchase","purchase":{…},"context":{…}}`.
public struct ConnectifPurchaseEvent: Hashable, Sendable {
    /// The event's type on the wire.
    public static let type = "purchase"

    /// The purchase.
    public let purchase: Purchase
    /// The context sent with it.
    public let context: EventContext

    /// Validates the purchase and pairs it with its context.
    /// - Throws: ``ConnectifError`` naming the first field that breaks a rule.
    public init(purchase: Purchase, context: EventContext) throws(ConnectifError) {
        try purchase.validate()
        self.purchase = purchase
        self.context = context
    }

    /// The event as a JSON value.
    public var json: JSONValue {
        [
            "type": .string(Self.type),
            "purchase": Self.json(purchase),
            "context": [
                "platform": .string(context.platform),
                "osVersion": .string(context.osVersion),
                "appVersion": .string(context.appVersion),
                "toolkitVersion": .string(context.toolkitVersion),
            ],
        ]
    }

    /// The event as compact JSON bytes (keys sorted), ready for an HTTP body.
    public var body: Data { Data(JSONWriter.string(json).utf8) }

    static func json(_ purchase: Purchase) -> JSONValue {
        var members: [String: JSONValue] = [
            "purchaseId": .string(purchase.purchaseId),
            "cartId": .string(purchase.cartId),
            "totalQuantity": .number(JSONNumber(purchase.totalQuantity)),
            "totalPrice": .number(JSONNumber(purchase.totalPrice)),
            "products": .array(purchase.products.map(json)),
        ]
        members["purchaseDate"] = purchase.purchaseDate.map(date)
        members["paymentMethod"] = purchase.paymentMethod.map(JSONValue.string)
        members["source_name"] = purchase.sourceName.map(JSONValue.string)
        members["source_type"] = purchase.sourceType.map { .string($0.rawValue) }
        return .object(members)
    }

    static func json(_ item: ProductBasketItem) -> JSONValue {
        var members: [String: JSONValue] = [
            "productId": .string(item.productId),
            "name": .string(item.name),
            "unitPrice": money(item.unitPrice),
            "quantity": .number(JSONNumber(item.quantity)),
            "price": money(item.price),
        ]
        let texts: [(String, String?)] = [
            ("productDetailUrl", item.productDetailUrl), ("description", item.description), ("imageUrl", item.imageUrl),
            ("brand", item.brand), ("thumbnailUrl", item.thumbnailUrl),
            ("customField1", item.customField1), ("customField2", item.customField2), ("customField3", item.customField3),
        ]
        for (key, value) in texts { members[key] = value.map(JSONValue.string) }
        let amounts: [(String, Decimal?)] = [
            ("rating", item.rating), ("unitPriceOriginal", item.unitPriceOriginal), ("unitPriceWithoutVAT", item.unitPriceWithoutVAT),
            ("discountedAmount", item.discountedAmount), ("discountedPercentage", item.discountedPercentage),
        ]
        for (key, value) in amounts { members[key] = value.map(money) }
        members["reviewCount"] = item.reviewCount.map { .number(JSONNumber($0)) }
        members["ratingCount"] = item.ratingCount.map { .number(JSONNumber($0)) }
        members["categories"] = item.categories.map { .array($0.map(JSONValue.string)) }
        members["tags"] = item.tags.map { .array($0.map(JSONValue.string)) }
        members["publishedAt"] = item.publishedAt.map(date)
        return .object(members)
    }

    private static func money(_ amount: Decimal) -> JSONValue { .number(JSONNumber(amount)) }

    private static func date(_ date: Date) -> JSONValue { .string(date.formatted(.iso8601)) }
}
