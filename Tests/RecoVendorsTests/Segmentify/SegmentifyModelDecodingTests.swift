import Foundation
import Testing
import RecoVendors

/// A shop's own model, the way a user declares it.
private struct ShopProduct: RecommendableProduct {
    let productId: String
    let name: String
    let price: Decimal
    let oldPrice: Decimal?
    let priceText: String
    let category: [String]
    let image: String
    let inStock: Bool
    let lastUpdateTime: Date
}

@Suite("Segmentify payloads into a caller's model")
struct SegmentifyModelDecodingTests {
    @Test func pricesAsNumbersOrStringsAndCategoryAsStringOrArrayDecode() throws {
        let reply = try SegmentifyRecommendations.decode(SamplePayload.data("segmentify-product-page.json"), language: "TR")
        let shop = reply.decoded(as: ShopProduct.self)
        #expect(shop.report.failures.isEmpty)
        #expect(shop.widgets.map { $0.products.count } == [9, 8, 6, 8])

        // 142 is sent with "price":"1099.99" and "category":"Kadın > Giyim > Tayt" (a string each).
        let tights = try #require(shop.item(instanceId: "scn_64f1c2a9d7e3b040", productId: "142"))
        #expect(tights.raw["price"] == .string("1099.99"))
        #expect(tights.product.price == Decimal(string: "1099.99"))
        #expect(tights.product.category == ["Kadın > Giyim > Tayt"])
        #expect(tights.position == 3)

        // 101 is sent with a number price and an array category.
        let boots = try #require(shop.item(instanceId: "scn_64f1c2a9d7e3b001", productId: "101"))
        #expect(boots.raw["price"]?.numberValue?.text == "1899.99")
        #expect(boots.product.price == Decimal(string: "1899.99"))
        #expect(boots.product.oldPrice == Decimal(string: "2299.99"))
        #expect(boots.product.category == ["Erkek > Ayakkabı > Krampon"])
        #expect(boots.product.priceText == "1.899,99 TL")
        #expect(boots.product.lastUpdateTime == Date(timeIntervalSince1970: 1_700_300_101))
    }

    @Test func searchProductsDecodeIntoTheSameModel() throws {
        let result = try SegmentifySearch.decode(SamplePayload.data("segmentify-search-after.json"))
        let shop = result.recommendations.decoded(as: ShopProduct.self)
        #expect(shop.report.failures.isEmpty)
        let widget = try #require(shop.widget(instanceId: "product"))
        #expect(widget.products.count == 10)
        let turf = try #require(widget.item(productId: "104"))
        #expect(turf.position == 5)
        #expect(turf.product.price == Decimal(string: "2149.99"))
        #expect(turf.product.category == ["Erkek > Ayakkabı > Halı Saha"])
    }

    @Test func aProductYourModelCannotReadIsReportedWithItsPath() throws {
        let json = #"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"scn_1","actionId":"act_1","dynamicItems":"[{\"recommendationSource\":\"A\",\"itemCount\":2}]","recommendedProducts":{"A":[{"productId":"1","name":"Top","price":"12,50","priceText":"12,50 TL","category":"Top","image":"//cdn/x.jpg","inStock":true,"lastUpdateTime":1700000000000},{"productId":"2","name":"Forma","price":99.9,"priceText":"99,90 TL","category":["Forma"],"image":"//cdn/y.jpg","inStock":"true","lastUpdateTime":1700000000000}]}}}]]}"#
        let shop = try SegmentifyRecommendations.decode(Data(json.utf8)).decoded(as: ShopProduct.self)
        #expect(shop.widgets.first?.products.map(\.productId) == ["2"])
        #expect(shop.widgets.first?.items.first?.position == 1)
        let failure = try #require(shop.report.failures.first)
        #expect(failure.productId == "1")
        #expect(failure.path.description == "$.responses[0][0].params.recommendedProducts.A[0].price")
    }
}
