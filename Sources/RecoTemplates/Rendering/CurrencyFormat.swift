import Foundation

/// How a price is written for one currency: symbol, where it goes, separators and minor digits.
///
/// RecoKit formats prices itself, from a small table of common currencies, instead of asking the
/// platform's ICU: the output is then the same on every machine and every OS version, so rendered
/// HTML and golden files never change under you. The conventions are the common ones in each
/// currency's main market:
///
/// ```swift
/// CurrencyFormat(code: "TRY").string(for: 1234.5)   // "1.234,50 TL"   (as Segmentify's priceText)
/// CurrencyFormat(code: "EUR").string(for: 775)      // "775,00 €"
/// CurrencyFormat(code: "USD").string(for: 775)      // "$775.00"
/// CurrencyFormat(code: "JPY").string(for: 1200)     // "¥1,200"
/// CurrencyFormat(code: "XYZ").string(for: 5)        // "5.00 XYZ"      (an unknown code follows the number)
/// CurrencyFormat.plain.string(for: 1234.5)          // "1,234.50"      (no currency known)
/// ```
///
/// Amounts are rounded half away from zero to the currency's minor digits, exactly (`Decimal`).
public struct CurrencyFormat: Sendable, Hashable {
    /// The text written before or after the number (`"$"`, `"TL"`, `"€"`), or empty for none.
    public var symbol: String
    /// Whether the symbol comes before the number (`$5.00`) rather than after it (`5,00 €`).
    public var symbolFirst: Bool
    /// Whether a space separates the symbol from the number.
    public var spaced: Bool
    /// The mark between whole and minor units.
    public var decimalSeparator: String
    /// The mark between groups of three digits.
    public var groupingSeparator: String
    /// How many minor digits are written (2 for cents, 0 for yen).
    public var fractionDigits: Int

    /// A format written out in full.
    public init(symbol: String, symbolFirst: Bool, spaced: Bool, decimalSeparator: String, groupingSeparator: String, fractionDigits: Int) {
        self.symbol = symbol
        self.symbolFirst = symbolFirst
        self.spaced = spaced
        self.decimalSeparator = decimalSeparator
        self.groupingSeparator = groupingSeparator
        self.fractionDigits = max(0, fractionDigits)
    }

    /// The format for an ISO 4217 code (any case). An unknown code writes `1,234.50 CODE`.
    public init(code: String) {
        let code = code.trimmingCharacters(in: .whitespaces).uppercased()
        self = Self.known[code] ?? CurrencyFormat(symbol: code, symbolFirst: false, spaced: true, decimalSeparator: ".", groupingSeparator: ",", fractionDigits: 2)
    }

    /// A number with two decimals and no symbol, for a price whose currency is unknown.
    public static let plain = CurrencyFormat(symbol: "", symbolFirst: false, spaced: false, decimalSeparator: ".", groupingSeparator: ",", fractionDigits: 2)

    /// The codes this table knows, sorted.
    public static var knownCodes: [String] { known.keys.sorted() }

    /// The amount written in this format.
    public func string(for amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, fractionDigits, .plain)
        let negative = rounded < 0
        // Decimal's description is locale-independent: digits, an optional "-", an optional ".".
        let digits = (negative ? -rounded : rounded).description
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? "0"
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        if fraction.count < fractionDigits { fraction += String(repeating: "0", count: fractionDigits - fraction.count) }
        var number = Self.grouped(whole, separator: groupingSeparator)
        if fractionDigits > 0 { number += decimalSeparator + fraction }
        let sign = negative ? "-" : ""
        guard !symbol.isEmpty else { return sign + number }
        let gap = spaced ? " " : ""
        return sign + (symbolFirst ? symbol + gap + number : number + gap + symbol)
    }

    private static func grouped(_ whole: String, separator: String) -> String {
        let characters = Array(whole)
        guard characters.count > 3 else { return whole }
        var result = ""
        for (index, character) in characters.enumerated() {
            if index > 0 && (characters.count - index) % 3 == 0 { result += separator }
            result.append(character)
        }
        return result
    }

    private static func before(_ symbol: String, spaced: Bool = false, decimal: String = ".", grouping: String = ",", digits: Int = 2) -> CurrencyFormat {
        CurrencyFormat(symbol: symbol, symbolFirst: true, spaced: spaced, decimalSeparator: decimal, groupingSeparator: grouping, fractionDigits: digits)
    }

    private static func after(_ symbol: String, decimal: String = ",", grouping: String = ".", digits: Int = 2) -> CurrencyFormat {
        CurrencyFormat(symbol: symbol, symbolFirst: false, spaced: true, decimalSeparator: decimal, groupingSeparator: grouping, fractionDigits: digits)
    }

    private static let known: [String: CurrencyFormat] = [
        "TRY": after("TL"),
        "EUR": after("€"),
        "USD": before("$"),
        "GBP": before("£"),
        "JPY": before("¥", digits: 0),
        "CNY": before("CN¥"),
        "KRW": before("₩", digits: 0),
        "INR": before("₹"),
        "CAD": before("CA$"),
        "AUD": before("A$"),
        "NZD": before("NZ$"),
        "MXN": before("MX$"),
        "BRL": before("R$", spaced: true, decimal: ",", grouping: "."),
        "CHF": before("CHF", spaced: true, decimal: ".", grouping: "'"),
        "SEK": after("kr", grouping: " "),
        "NOK": after("kr", grouping: " "),
        "DKK": after("kr.", grouping: "."),
        "PLN": after("zł", grouping: " "),
        "CZK": after("Kč", grouping: " "),
        "HUF": after("Ft", grouping: " ", digits: 0),
        "RON": after("lei"),
        "RUB": after("₽", grouping: " "),
        "UAH": after("₴", grouping: " "),
        "AED": before("AED", spaced: true),
        "SAR": before("SAR", spaced: true),
        "ILS": before("₪"),
        "ZAR": before("R", spaced: true, decimal: ",", grouping: " "),
    ]
}
