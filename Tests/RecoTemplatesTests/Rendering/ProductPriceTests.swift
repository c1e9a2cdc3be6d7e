import Foundation
import Testing
@testable import RecoTemplates

@Suite("Product price")
struct ProductPriceTests {
    private func product(_ json: String) throws -> RawProduct {
        try RawProduct(JSONValue(parsing: json))
    }

    @Test func vendorPriceTextWins() throws {
        let price = ProductPrice(try product(#"{"productId":"1","price":775,"priceText":"775,00 TL","currency":"TRY"}"#))
        #expect(price.text == "775,00 TL")
        #expect(price.amount == 775)
        #expect(price.oldText == nil)
        #expect(price.discountPercent == nil)
    }

    @Test func formatsTheDecimalForItsCurrency() throws {
        let price = ProductPrice(try product(#"{"productId":"1","price":"1299.9","currency":"EUR"}"#))
        #expect(price.text == "1.299,90 €")
        #expect(price.currencyCode == "EUR")
    }

    @Test func usesTheDefaultCurrencyOnlyWhenTheProductHasNone() throws {
        #expect(ProductPrice(try product(#"{"productId":"1","price":49.99}"#), defaultCurrency: "USD").text == "$49.99")
        #expect(ProductPrice(try product(#"{"productId":"1","price":49.99,"currency":"GBP"}"#), defaultCurrency: "USD").text == "£49.99")
        #expect(ProductPrice(try product(#"{"productId":"1","price":49.99}"#)).text == "49.99")
    }

    @Test func oldPriceAndDiscountOnlyWhenHigher() throws {
        let sale = ProductPrice(try product(#"{"productId":"1","price":600,"oldPrice":800,"currency":"TRY"}"#))
        #expect(sale.oldText == "800,00 TL")
        #expect(sale.oldAmount == 800)
        #expect(sale.discountPercent == 25)
        let same = ProductPrice(try product(#"{"productId":"1","price":600,"oldPrice":600}"#))
        #expect(same.oldText == nil && same.discountPercent == nil)
        let lower = ProductPrice(try product(#"{"productId":"1","price":600,"oldPrice":500}"#))
        #expect(lower.oldText == nil && lower.discountPercent == nil)
    }

    @Test func discountRoundsHalfUpAndHidesZero() throws {
        #expect(ProductPrice(try product(#"{"productId":"1","price":66.5,"oldPrice":100}"#)).discountPercent == 34)
        let tiny = ProductPrice(try product(#"{"productId":"1","price":99.8,"oldPrice":100}"#))
        #expect(tiny.oldText == "100.00")
        #expect(tiny.discountPercent == nil)
    }

    @Test func vendorOldPriceTextIsUsed() throws {
        let price = ProductPrice(try product(#"{"productId":"1","price":600,"oldPrice":800,"priceText":"600,00 TL","oldPriceText":"800,00 TL"}"#))
        #expect(price.text == "600,00 TL")
        #expect(price.oldText == "800,00 TL")
    }

    @Test func noPriceNoText() throws {
        let price = ProductPrice(try product(#"{"productId":"1","priceText":"  "}"#))
        #expect(price.text == nil && price.amount == nil)
    }
}

@Suite("Exact price reading")
struct PriceDecimalTests {
    @Test(arguments: ["449.9", "0", "-12", "1299.90", "0.05", "123456789012345678", "1e3", "12.", ".5", "1.2.3", " 7", "-", "99999999999999999999.5"])
    func readsLikeTheCoreDecimalValue(text: String) {
        for value in [JSONValue.string(text)] + (JSONNumber(text: text).map { [JSONValue.number($0)] } ?? []) {
            #expect(ProductPrice.decimal(value) == value.decimalValue, "\(value)")
        }
    }
}

@Suite("Discount arithmetic")
struct DiscountArithmeticTests {
    @Test(arguments: [("800", "600"), ("100", "66.5"), ("100", "99.8"), ("2299.99", "1899.99"), ("0.03", "0.01"), ("599.9", "449.90"), ("1", "0.005"), ("10", "0")])
    func integerPathAgreesWithDecimal(old: String, new: String) throws {
        let oldNumber = try #require(PlainNumber(.string(old)))
        let newNumber = try #require(PlainNumber(.string(new)))
        let fast = try #require(PlainNumber.percentOff(old: oldNumber, new: newNumber))
        var share = (Decimal(string: old)! - Decimal(string: new)!) * 100 / Decimal(string: old)!
        var rounded = Decimal()
        NSDecimalRound(&rounded, &share, 0, .plain)
        #expect(fast == NSDecimalNumber(decimal: rounded).intValue)
    }
}
