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
        amount = Self.decimal(raw.fields["price"])
        text = Self.nonEmptyString(raw.fields["priceText"]) ?? amount.map(format.string(for:))
        guard let amount, let old = Self.decimal(raw.fields["oldPrice"]), old > amount, amount >= 0 else { return }
        oldAmount = old
        oldText = Self.nonEmptyString(raw.fields["oldPriceText"]) ?? format.string(for: old)
        var share = (old - amount) * 100 / old
        var rounded = Decimal()
        NSDecimalRound(&rounded, &share, 0, .plain)
        let percent = NSDecimalNumber(decimal: rounded).intValue
        discountPercent = percent > 0 ? percent : nil
    }

    private static func nonEmptyString(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue, let first = text.first, let last = text.last else { return nil }
        if !first.isWhitespace && !last.isWhitespace { return text }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A number or numeric string as an exact `Decimal`: plain decimals (`449.9`, `-12`, up to 18
    /// digits) are read directly, anything else (exponents, long numbers) by ``JSONValue/decimalValue``.
    static func decimal(_ value: JSONValue?) -> Decimal? {
        let text: String
        switch value {
        case .number(let number)?: text = number.text
        case .string(let string)?: text = string
        default: return nil
        }
        var significand: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var negative = false
        var seenPoint = false
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where index == 0: negative = true
            case UInt8(ascii: ".") where !seenPoint && digits > 0: seenPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9") where digits < 18:
                significand = significand * 10 + UInt64(byte - UInt8(ascii: "0"))
                digits += 1
                if seenPoint { fractionDigits += 1 }
            default: return value?.decimalValue
            }
        }
        guard digits > 0, !(seenPoint && fractionDigits == 0) else { return value?.decimalValue }
        return Decimal(sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(significand))
    }
}
