import Foundation

extension Purchase {
    /// Checks the purchase against the guide's rules and throws the first broken one.
    ///
    /// Required: `purchaseId`, `cartId` (not blank); at least one product; `totalQuantity` equal to the
    /// sum of the products' quantities (the guide counts duplicates); `totalPrice` not negative. Each
    /// product: `productId`, `name` not blank, `quantity` at least 1, `unitPrice` and `price` not
    /// negative; the optional amounts and counts not negative, `discountedPercentage` within 0–100,
    /// URLs absolute `http`/`https`.
    /// - Throws: ``ConnectifError`` naming the field (`products[2].price`).
    public func validate() throws(ConnectifError) {
        if let first = problems.first { throw first }
    }

    /// Every broken rule, in field order (empty when the purchase is valid).
    public var problems: [ConnectifError] {
        var found: [ConnectifError] = []
        Self.requireText(purchaseId, "purchaseId", into: &found)
        Self.requireText(cartId, "cartId", into: &found)
        if products.isEmpty {
            found.append(.missingField("products"))
        } else {
            // Added with overflow reported: quantities come from outside and may be as large as an Int.
            var units = 0
            var overflow = false
            for product in products where !overflow { (units, overflow) = units.addingReportingOverflow(product.quantity) }
            if overflow {
                found.append(.invalidField("totalQuantity", "the products' quantities add up to more than \(Int.max), got \(totalQuantity)"))
            } else if totalQuantity != units {
                found.append(.invalidField("totalQuantity", "must equal the sum of the products' quantities (\(units)), got \(totalQuantity)"))
            }
        }
        Self.requireNotNegative(totalPrice, "totalPrice", into: &found)
        if let sourceName, sourceName.trimmingCharacters(in: .whitespaces).isEmpty {
            found.append(.invalidField("source_name", "must not be blank when given"))
        }
        for (index, product) in products.enumerated() {
            product.check(at: "products[\(index)]", into: &found)
        }
        return found
    }

    fileprivate static func requireText(_ text: String, _ field: String, into found: inout [ConnectifError]) {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { found.append(.missingField(field)) }
    }

    fileprivate static func requireNotNegative(_ amount: Decimal?, _ field: String, into found: inout [ConnectifError]) {
        if let amount, amount < 0 { found.append(.invalidField(field, "must not be negative, got \(amount)")) }
    }

    fileprivate static func requireNotNegative(_ count: Int?, _ field: String, into found: inout [ConnectifError]) {
        if let count, count < 0 { found.append(.invalidField(field, "must not be negative, got \(count)")) }
    }

    fileprivate static func requireWebURL(_ text: String?, _ field: String, into found: inout [ConnectifError]) {
        guard let text else { return }
        let scheme = URL(string: text)?.scheme?.lowercased()
        if scheme != "http" && scheme != "https" || URL(string: text)?.host == nil {
            found.append(.invalidField(field, "must be an absolute http or https URL, got \"\(text)\""))
        }
    }
}

extension ProductBasketItem {
    fileprivate func check(at prefix: String, into found: inout [ConnectifError]) {
        Purchase.requireText(productId, "\(prefix).productId", into: &found)
        Purchase.requireText(name, "\(prefix).name", into: &found)
        Purchase.requireNotNegative(unitPrice, "\(prefix).unitPrice", into: &found)
        if quantity < 1 { found.append(.invalidField("\(prefix).quantity", "must be at least 1, got \(quantity)")) }
        Purchase.requireNotNegative(price, "\(prefix).price", into: &found)
        Purchase.requireWebURL(productDetailUrl, "\(prefix).productDetailUrl", into: &found)
        Purchase.requireWebURL(imageUrl, "\(prefix).imageUrl", into: &found)
        Purchase.requireWebURL(thumbnailUrl, "\(prefix).thumbnailUrl", into: &found)
        Purchase.requireNotNegative(reviewCount, "\(prefix).reviewCount", into: &found)
        Purchase.requireNotNegative(rating, "\(prefix).rating", into: &found)
        Purchase.requireNotNegative(ratingCount, "\(prefix).ratingCount", into: &found)
        Purchase.requireNotNegative(unitPriceOriginal, "\(prefix).unitPriceOriginal", into: &found)
        Purchase.requireNotNegative(unitPriceWithoutVAT, "\(prefix).unitPriceWithoutVAT", into: &found)
        Purchase.requireNotNegative(discountedAmount, "\(prefix).discountedAmount", into: &found)
        if let discountedPercentage, discountedPercentage < 0 || discountedPercentage > 100 {
            found.append(.invalidField("\(prefix).discountedPercentage", "must be within 0 and 100, got \(discountedPercentage)"))
        }
    }
}
