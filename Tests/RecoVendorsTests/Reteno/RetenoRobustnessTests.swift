import Foundation
import RecoVendors
import Testing

@Suite("Reteno replies: large, deep and hostile input")
struct RetenoRobustnessTests {
    let variant = try! RetenoVariantId("r1107v1482")

    /// A reply of `count` realistic products, one in every hundred with a bad price.
    func bigReply(count: Int) -> Data {
        var text = #"{"recoms":["#
        for index in 0..<count {
            if index > 0 { text += "," }
            let price = index % 100 == 99 ? #""call us""# : "\(index % 500).99"
            text += #"{"productId":"SKU-\#(index)","name":"Product \#(index) — Çok Satan","descr":"A sturdy, well-made product number \#(index) with a long description to make the payload realistic.","imageUrl":"https://shop.example.com/media/catalog/product/\#(index).jpg","price":\#(price),"url":"https://shop.example.com/p/\#(index).html","category":["Default Category/Gear","Default Category/Gear/Bags"],"tags_color":"Black, Blue","tags_size":"S, M, L"}"#
        }
        return Data((text + "]}").utf8)
    }

    @Test func aFiveMegabyteReplyDecodesEveryProductAndReportsTheBadOnes() throws {
        let data = bigReply(count: 15_000)
        #expect(data.count > 5_000_000)
        let raw = try RetenoRecoms.decode(data, variantId: variant)
        #expect(raw.widgets.first?.items.count == 15_000)
        let models = raw.decoded(as: Recommendation.self)
        #expect(models.widgets.first?.items.count == 14_850)
        #expect(models.report.failures.count == 150)
        #expect(models.report.failures.first?.path.description == "$.recoms[99].price")
        #expect(models.report.failures.first?.index == 99)
        #expect(models.widgets.first?.items.last?.position == 14_850)
        #expect(models.widgets.first?.products[1].price == Decimal(string: "1.99"))
    }

    @Test func deepNestingInsideAProductIsAnErrorWithItsPath() {
        let deep = #"{"recoms":[{"productId":"x","attributes":"# + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "}]}"
        #expect {
            _ = try RetenoRecoms.decode(Data(deep.utf8), variantId: variant)
        } throws: { error in
            let error = error as? PayloadError
            return error?.kind == .limitExceeded && error?.description.hasPrefix("JSON limit exceeded: nesting deeper than 512 levels") == true
                && error?.path.description.hasPrefix("$.recoms[0].attributes[0][0]") == true
        }
    }

    @Test func randomBytesAreATypedErrorNeverACrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            do {
                _ = try RetenoRecoms.decode(Data(bytes), variantId: variant)
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        // Truncating a real reply at every length gives an error (or, at the full length, the reply).
        let whole = Data(#"{"recoms":[{"productId":"MH07","name":"Hero Hoodie","price":54,"category":["Men","Tops"]}]}"#.utf8)
        for length in 0..<whole.count {
            #expect(throws: PayloadError.self) { try RetenoRecoms.decode(whole.prefix(length), variantId: variant) }
        }
        #expect(throws: Never.self) { try RetenoRecoms.decode(whole, variantId: variant) }
    }
}
