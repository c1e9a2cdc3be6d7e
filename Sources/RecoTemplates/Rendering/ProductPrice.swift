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
        let code = Self.nonEmptyString(raw.field(named: "currency")) ?? defaultCurrency
        currencyCode = code
        let price = PlainNumber(raw.field(named: "price"))
        let amount = price?.decimal ?? raw.field(named: "price")?.decimalValue
        self.amount = amount
        text = Self.nonEmptyString(raw.field(named: "priceText")) ?? amount.map { Self.format(code).string(for: $0) }
        guard let amount, amount >= 0 else { return }
        let oldPrice = PlainNumber(raw.field(named: "oldPrice"))
        guard let old = oldPrice?.decimal ?? raw.field(named: "oldPrice")?.decimalValue, old > amount else { return }
        oldAmount = old
        oldText = Self.nonEmptyString(raw.field(named: "oldPriceText")) ?? Self.format(code).string(for: old)
        let percent: Int
        if let price, let oldPrice, let exact = PlainNumber.percentOff(old: oldPrice, new: price) {
            percent = exact
        } else {
            var share = (old - amount) * 100 / old
            var rounded = Decimal()
            NSDecimalRound(&rounded, &share, 0, .plain)
            percent = NSDecimalNumber(decimal: rounded).intValue
        }
        discountPercent = percent > 0 ? percent : nil
    }

    private static func format(_ code: String?) -> CurrencyFormat {
        code.map(CurrencyFormat.init(code:)) ?? .plain
    }

    private static func nonEmptyString(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return DisplayText.trimmed(text)
    }

    /// A number or numeric string as an exact `Decimal` (as ``JSONValue/decimalValue`` reads it).
    static func decimal(_ value: JSONValue?) -> Decimal? {
        PlainNumber(value)?.decimal ?? value?.decimalValue
    }
}

/// A plain decimal number (`449.9`, `-12`: no exponent, at most 18 digits) read without Foundation,
/// so that prices, comparisons and discounts take no string parsing on the common path.
struct PlainNumber {
    var significand: UInt64
    var fractionDigits: Int
    var negative: Bool

    init?(_ value: JSONValue?) {
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
            default: return nil
            }
        }
        guard digits > 0, !(seenPoint && fractionDigits == 0) else { return nil }
        self.significand = significand
        self.fractionDigits = fractionDigits
        self.negative = negative
    }

    var decimal: Decimal {
        Decimal(sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(significand))
    }

    /// `(old - new) / old` in whole percent, rounded half up, when both are non-negative, `old > new`,
    /// and the integer arithmetic does not overflow; nil otherwise (the caller uses `Decimal`).
    static func percentOff(old: PlainNumber, new: PlainNumber) -> Int? {
        guard !old.negative, !new.negative else { return nil }
        let scale = max(old.fractionDigits, new.fractionDigits)
        guard let oldScaled = old.scaled(to: scale), let newScaled = new.scaled(to: scale), oldScaled > newScaled else { return nil }
        let (off, overflow) = (oldScaled - newScaled).multipliedReportingOverflow(by: 200)
        guard !overflow, oldScaled <= UInt64.max / 2 else { return nil }
        // The sum can overflow too (an old price of 92000000000000000 and a price of 0 trapped here).
        let (rounded, sumOverflow) = off.addingReportingOverflow(oldScaled)
        guard !sumOverflow else { return nil }
        return Int(rounded / (2 * oldScaled))
    }

    private func scaled(to scale: Int) -> UInt64? {
        var value = significand
        for _ in 0..<(scale - fractionDigits) {
            let (next, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            value = next
        }
        return value
    }
}
