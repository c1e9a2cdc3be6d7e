import Foundation
import Testing
import RecoKit
import RecoVendors

@Suite("Segmentify PAGE_VIEW, SEARCH and CUSTOM_EVENT")
struct PageSearchCustomEventTests {
    let common = EventFixtures.common

    @Test func pageViewCarriesCategoryAndSubCategory() throws {
        let page = SegmentifyPageView(category: .categoryPage, subCategory: "Men>Shoes>Sports", common: common)
        #expect(try page.json() == EventFixtures.json("""
        {"name":"PAGE_VIEW","category":"Category Page","subCategory":"Men>Shoes>Sports","userId":"-897541074991628287",
         "sessionId":"-2066154474596835328","lang":"EN","currency":"USD",
         "pageUrl":"https://segmentify-shop.myshopify.com/products/asymmetric-dress-black"}
        """))
        let home = try SegmentifyPageView(category: .homePage, common: common).json()
        #expect(home["subCategory"] == nil)
    }

    @Test func theSevenPredefinedCategoriesAreTheGuidesAndOthersAreAllowed() throws {
        #expect(SegmentifyPageCategory.predefined.map(\.rawValue)
                == ["Home Page", "Product Page", "Category Page", "Basket Page", "Checkout Page", "Search Page", "404 Page"])
        // The guide's purchase example sends its own category.
        let success = SegmentifyPageView(category: "Purchase Success Page", common: common)
        #expect(!success.category.isPredefined)
        #expect(try success.json()["category"]?.stringValue == "Purchase Success Page")
        expectRefused(SegmentifyPageView(category: "", common: common), field: "pageView.category")
        expectRefused(SegmentifyPageView(category: .productPage, subCategory: " ", common: common), field: "pageView.subCategory")
    }

    @Test func searchBeforeHasNoQueryAndAfterHasTheQuery() throws {
        let before = SegmentifySearchEvent.beforeSearch(common: common)
        #expect(before.isBeforeSearch)
        let beforeJSON = try before.json()
        #expect(beforeJSON["name"]?.stringValue == "SEARCH")
        #expect(beforeJSON["query"] == nil)
        // The guide: "Should be empty or null for before search".
        #expect(try SegmentifySearchEvent(query: "", common: common).json()["query"] == nil)
        let after = SegmentifySearchEvent.afterSearch(query: "Dress", common: common)
        #expect(!after.isBeforeSearch)
        #expect(try after.json()["query"]?.stringValue == "Dress")
        expectRefused(SegmentifySearchEvent.afterSearch(query: "   ", common: common), field: "search.query")
    }

    @Test func customEventSendsTypeAndParamsMergedWithCommonParams() throws {
        var shared = common
        shared.params = ["channel": "app", "PRICE": "ignored"]
        let custom = SegmentifyCustomEvent(type: "test", params: ["PRICE": "200-500"], common: shared)
        let json = try custom.json()
        #expect(json["name"]?.stringValue == "CUSTOM_EVENT")
        #expect(json["type"]?.stringValue == "test")
        #expect(json["params"] == EventFixtures.json(#"{"PRICE":"200-500","channel":"app"}"#))
        expectRefused(SegmentifyCustomEvent(type: "", common: common), field: "customEvent.type")
        expectRefused(SegmentifyCustomEvent(type: "filter", params: [" ": "x"], common: common), field: "customEvent.params")
        #expect(try SegmentifyCustomEvent(type: "filter", common: common).json()["params"] == nil)
    }

    @Test func testModeAndDeviceFieldsAreCommonToEveryEvent() throws {
        var shared = common
        shared.testMode = true
        shared.region = "EU"
        shared.os = "iOS"
        shared.device = "IPHONE"
        let events: [any SegmentifyEvent] = [
            SegmentifyPageView(category: .homePage, common: shared), EventFixtures.dress(common: shared),
            SegmentifySearchEvent.beforeSearch(common: shared), SegmentifyCustomEvent(type: "t", common: shared),
            SegmentifyBasketOperation(step: .add, productId: "1", common: shared),
            SegmentifyCheckout(step: .viewBasket, totalPrice: 1, products: [SegmentifyBasketProduct(productId: "1")], common: shared),
            SegmentifyUserOperation(step: .signIn, username: "johndoe", common: shared),
            SegmentifyUserChange(newUserId: "USER_42", common: shared),
        ]
        for event in events {
            let json = try event.json()
            #expect(json["testMode"] == .bool(true))
            #expect(json["region"]?.stringValue == "EU")
            #expect(json["os"]?.stringValue == "iOS")
            #expect(json["device"]?.stringValue == "IPHONE")
            #expect(json["sessionId"]?.stringValue == "-2066154474596835328")
            #expect(json["userId"]?.stringValue != nil)
        }
    }
}
