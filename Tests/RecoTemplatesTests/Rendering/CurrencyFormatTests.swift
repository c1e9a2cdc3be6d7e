import Foundation
import Testing
import RecoTemplates

@Suite("Currency format")
struct CurrencyFormatTests {
    @Test(arguments: [
        ("TRY", "775", "775,00 TL"),
        ("TRY", "1234.5", "1.234,50 TL"),
        ("try", "1234567.891", "1.234.567,89 TL"),
        ("EUR", "19.999", "20,00 €"),
        ("USD", "0.5", "$0.50"),
        ("USD", "1000", "$1,000.00"),
        ("GBP", "12.345", "£12.35"),
        ("JPY", "1200.5", "¥1,201"),
        ("SEK", "12999", "12 999,00 kr"),
        ("CHF", "1234.05", "CHF 1'234.05"),
        ("XYZ", "5", "5.00 XYZ"),
        ("USD", "-3.2", "-$3.20"),
    ])
    func formatsCommonCurrencies(code: String, amount: String, expected: String) throws {
        let value = try #require(Decimal(string: amount))
        #expect(CurrencyFormat(code: code).string(for: value) == expected)
    }

    @Test func plainHasNoSymbol() {
        #expect(CurrencyFormat.plain.string(for: Decimal(string: "1234.5")!) == "1,234.50")
        #expect(CurrencyFormat.plain.string(for: 0) == "0.00")
    }

    @Test func roundsHalfAwayFromZeroExactly() {
        // 2.675 is not representable as a Double (it rounds to 2.67 there); Decimal keeps it exact.
        #expect(CurrencyFormat(code: "USD").string(for: Decimal(string: "2.675")!) == "$2.68")
        #expect(CurrencyFormat(code: "USD").string(for: Decimal(string: "2.665")!) == "$2.67")
    }
}
