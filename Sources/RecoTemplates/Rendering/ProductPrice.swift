import Foundation

/// A product's prices as a template shows them, worked out from its raw fields.
///
/// - The display price is the vendor's `priceText` when it is a non-empty string (Segmentify sends
///   `"775,00 TL"`), otherwise `price` (a number or a numeric string, read exactly as `Decimal`)
///   written with ``CurrencyFormat`` for the product's `currency` code, or the renderer's default
///   currency, or with no symbol when neither is known.
/// - There is an old price only when both `price` and `oldPrice` are numbers and `oldPrice` is
///   greater; it is shown as `oldPriceText` when sent, else formatted like the price.
/// - The discount is `(oldPrice - price) / oldPrice`, in whole percent rounded half up; a discount
///   that rounds to 0 % is not shown.
///
/// ```swift
/// let price = ProductPrice(raw)     // raw: {"price": 600, "oldPrice": 800, "currency": "TRY"}
/// price.text                        // "600,00 TL"
/// price.oldText                     // "800,00 TL"
/// price.discountPercent             // 25
/// ```
public struct ProductPrice: Sendable, Hashable {
    /// The price, exactly, when the product has a numeric one.
    public var amount: Decimal?
    /// The price before the discount, only when it is greater than ``amount``.
    public var oldAmount: Decimal?
    /// The currency code used to format the amounts (the product's, else the default), if any.
    public var currencyCode: String?
    /// The price as shown, nil when the product has none.
    public var text: String?
    /// The old price as shown, nil when there is no discount.
    public var oldText: String?
    /// The discount in whole percent, nil when there is none.
    public var discountPercent: Int?

    /// Reads the prices of a raw product.
    /// - Parameter defaultCurrency: the currency code to assume when the product has no `currency`.
    public init(_ raw: RawProduct, defaultCurrency: String? = nil) {
        let code = Self.nonEmptyString(raw.fields["currency"]) ?? defaultCurrency
        let format = code.map(CurrencyFormat.init(code:)) ?? .plain
        currencyCode = code
        amount = raw.fields["price"]?.decimalValue
        text = Self.nonEmptyString(raw.fields["priceText"]) ?? amount.map(format.string(for:))
        guard let amount, let old = raw.fields["oldPrice"]?.decimalValue, old > amount, amount >= 0 else { return }
        oldAmount = old
        oldText = Self.nonEmptyString(raw.fields["oldPriceText"]) ?? format.string(for: old)
        var share = (old - amount) * 100 / old
        var rounded = Decimal()
        NSDecimalRound(&rounded, &share, 0, .plain)
        let percent = NSDecimalNumber(decimal: rounded).intValue
        discountPercent = percent > 0 ? percent : nil
    }

    private static func nonEmptyString(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
