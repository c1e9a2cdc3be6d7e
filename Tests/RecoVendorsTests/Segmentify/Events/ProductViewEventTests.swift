import Foundation
import Testing
import RecoKit
import RecoVendors

@Suite("Segmentify PRODUCT_VIEW")
struct ProductViewEventTests {
    @Test func theGuidesExampleEncodesFieldByField() throws {
        let json = try EventFixtures.dress().json()
        #expect(json == EventFixtures.json("""
        {"name":"PRODUCT_VIEW","userId":"-897541074991628287","sessionId":"-2066154474596835328","lang":"EN","currency":"USD",
         "pageUrl":"https://segmentify-shop.myshopify.com/products/asymmetric-dress-black",
         "productId":"25799860937","title":"Asymmetric Dress in Black","category":"Womenswear","price":578,
         "url":"https://segmentify-shop.myshopify.com/products/asymmetric-dress-black",
         "image":"//cdn.shopify.com/s/files/1/1524/5822/products/2014_11_17_Lana_Look034_02_300x300.jpg?v=1475497696",
         "inStock":true,"brand":"Amelia Toro","noUpdate":true}
        """))
    }

    @Test func optionalFieldsUseTheGuidesKeysAndExactMoney() throws {
        var view = EventFixtures.dress()
        view.oldPrice = Decimal(string: "449.99")!
        view.price = Decimal(string: "349.99")!
        view.mobileUrl = "https://m.exampleshop.com/example-product-1/"
        view.imageXS = "https://cdn.exampleshop.com/example-product-1-xs.png"
        view.imageS = "https://cdn.exampleshop.com/example-product-1-small.png"
        view.imageM = "https://cdn.exampleshop.com/example-product-1-medium.png"
        view.imageL = "https://cdn.exampleshop.com/example-product-1-large.png"
        view.imageXL = "https://cdn.exampleshop.com/example-product-1-xl.png"
        view.gender = .female
        view.colors = ["black", "red", "blue"]
        view.sizes = ["small", "medium", "large"]
        view.labels = ["top-seller", "new-comer"]
        view.inStock = false
        view.common.sdkVersion = "1.4.0"
        view.common.appVersion = "7.2.1"
        let json = try view.json()
        #expect(JSONWriter.string(json["price"]!) == "349.99")
        #expect(JSONWriter.string(json["oldPrice"]!) == "449.99")
        #expect(json["mUrl"]?.stringValue == "https://m.exampleshop.com/example-product-1/")
        #expect(["imageXS", "imageS", "imageM", "imageL", "imageXL"].allSatisfy { json[$0]?.stringValue?.hasPrefix("https://cdn.") == true })
        #expect(json["gender"]?.stringValue == "F")
        #expect(json["colors"] == EventFixtures.json(#"["black","red","blue"]"#))
        #expect(json["sizes"] == EventFixtures.json(#"["small","medium","large"]"#))
        #expect(json["labels"] == EventFixtures.json(#"["top-seller","new-comer"]"#))
        #expect(json["inStock"] == .bool(false))
        #expect(json["sdkVersion"]?.stringValue == "1.4.0")
        #expect(json["appVersion"]?.stringValue == "7.2.1")
        #expect(SegmentifyProductView.Gender.allCases.map(\.rawValue) == ["M", "F", "U"])
    }

    @Test func eachMandatoryFieldIsRefusedByName() {
        var view = EventFixtures.dress()
        view.productId = ""
        expectRefused(view, field: "productView.productId")
        view = EventFixtures.dress(); view.title = "  "
        expectRefused(view, field: "productView.title")
        view = EventFixtures.dress(); view.url = ""
        expectRefused(view, field: "productView.url")
        view = EventFixtures.dress(); view.image = ""
        expectRefused(view, field: "productView.image")
        view = EventFixtures.dress(); view.category = ""
        expectRefused(view, field: "productView.category")
        var common = EventFixtures.common
        common.userId = ""
        expectRefused(EventFixtures.dress(common: common), field: "productView.userId")
        common = EventFixtures.common
        common.sessionId = ""
        expectRefused(EventFixtures.dress(common: common), field: "productView.sessionId")
        expectAccepted(EventFixtures.dress())
    }

    @Test func malformedValuesAreRefusedWithWhatWasGiven() {
        var view = EventFixtures.dress()
        view.price = -5
        #expect(expectRefused(view, field: "productView.price") == "productView.price: must be a number ≥ 0, got -5")
        view = EventFixtures.dress(); view.oldPrice = Decimal.nan
        #expect(expectRefused(view, field: "productView.oldPrice").hasSuffix("got NaN"))
        view = EventFixtures.dress(); view.url = "javascript:alert(1)"
        #expect(expectRefused(view, field: "productView.url") == #"productView.url: must be an http(s) or protocol-relative URL, got "javascript:alert(1)""#)
        view = EventFixtures.dress(); view.imageL = "large.png"
        expectRefused(view, field: "productView.imageL")
        view = EventFixtures.dress(); view.colors = ["black", ""]
        expectRefused(view, field: "productView.colors[1]")
        var common = EventFixtures.common
        common.currency = "euro"
        #expect(expectRefused(EventFixtures.dress(common: common), field: "productView.currency")
                == #"productView.currency: must be a three-letter currency code such as EUR, got "euro""#)
        common = EventFixtures.common
        common.pageUrl = "www.shop.example/p"
        expectRefused(EventFixtures.dress(common: common), field: "productView.pageUrl")
        // Zero is a price (a free sample); protocol-relative images are what the guide's example uses.
        view = EventFixtures.dress(); view.price = 0
        expectAccepted(view)
    }
}
