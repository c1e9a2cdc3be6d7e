import Foundation
import Testing
import RecoTemplates

@Suite("Prices from a vendor never trap")
struct PriceOverflowTests {
    /// The whole-percent discount added `(old - new) * 200 + old` unchecked: an old price of
    /// 92000000000000000 and a price of 0 overflowed and trapped in every template that shows a discount.
    @Test(arguments: [
        ("0", "92000000000000000", 100), ("1", "92233720368547758", 100), ("0.5", "99999999999999999", 100),
        ("600", "800", 25), ("0", "0.00000000000000001", 100), ("800", "800", nil),
    ])
    func aHugeOldPriceGivesItsDiscount(price: String, oldPrice: String, expected: Int?) throws {
        let raw = try RawProduct(JSONValue(parsing: #"{"productId":"1","name":"Lamp","price":\#(price),"oldPrice":\#(oldPrice),"currency":"EUR"}"#))
        #expect(ProductPrice(raw).discountPercent == expected)
        let widget = Widget(vendor: .reteno, instanceId: "r1v1", interactionId: "r1v1", title: "", rawProducts: [(raw, .root)])
        for template in ["carousel", "grid", "list", "email", "text"] {
            _ = try WidgetRenderer().render(widget, template: template)
        }
    }
}
