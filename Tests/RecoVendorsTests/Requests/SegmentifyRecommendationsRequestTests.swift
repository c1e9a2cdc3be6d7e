import Foundation
import Testing
import RecoVendors

/// The request a page sends Segmentify for its blocks, byte for byte: URL, headers, and the golden body
/// of each kind of page (product page, basket, checkout, search).
@Suite("Segmentify recommendations request")
struct SegmentifyRecommendationsRequestTests {
    static let dataCenter = URL(string: "https://gandalf.segmentify.com")!
    static let common = SegmentifyCommonFields(userId: "-897541074991628287", sessionId: "-5281452098739815420", lang: "TR",
                                               currency: "TRY", pageUrl: "https://www.shop.example/urun/240-lv09")

    static func request(_ events: [any SegmentifyEvent]) throws -> SegmentifyRecommendationsRequest {
        try SegmentifyRecommendationsRequest(dataCenter: dataCenter, apiKey: "a1b2-c3", origin: "www.shop.example", events: events)
    }

    static func body(_ events: [any SegmentifyEvent]) throws -> String {
        String(decoding: try request(events).request.body, as: UTF8.self)
    }

    @Test func endpointAndHeaders() throws {
        let http = try Self.request([SegmentifyPageView(category: .homePage, common: Self.common)]).request
        #expect(http.method == "POST")
        #expect(http.url.absoluteString == "https://gandalf.segmentify.com/add/events/v1.json?apiKey=a1b2-c3")
        #expect(http.headers.map(\.name) == ["Content-Type", "Accept", "Origin"])
        #expect(http.headers.map(\.value) == ["application/json", "application/json", "www.shop.example"])
    }

    @Test func aProductPage() throws {
        let view = SegmentifyProductView(productId: "240-LV09", title: "Koşu Ayakkabısı", url: "https://www.shop.example/urun/240-lv09",
                                         image: "//cdn.shop.example/240-lv09.jpg", category: "Spor > Koşu", price: Decimal(string: "775.50")!,
                                         common: Self.common)
        #expect(try Self.body([SegmentifyPageView(category: .productPage, common: Self.common), view]) == """
            [{"category":"Product Page","currency":"TRY","lang":"TR","name":"PAGE_VIEW","pageUrl":"https://www.shop.example/urun/240-lv09","sessionId":"-5281452098739815420","userId":"-897541074991628287"},{"category":"Spor > Koşu","currency":"TRY","image":"//cdn.shop.example/240-lv09.jpg","lang":"TR","name":"PRODUCT_VIEW","pageUrl":"https://www.shop.example/urun/240-lv09","price":775.5,"productId":"240-LV09","sessionId":"-5281452098739815420","title":"Koşu Ayakkabısı","url":"https://www.shop.example/urun/240-lv09","userId":"-897541074991628287"}]
            """)
    }

    @Test func aBasketAndACheckout() throws {
        let add = SegmentifyBasketOperation(step: .add, productId: "240-LV09", price: Decimal(string: "775.50")!, quantity: 2, common: Self.common)
        let checkout = SegmentifyCheckout(step: .viewBasket, totalPrice: 1551,
                                          products: [SegmentifyBasketProduct(productId: "240-LV09", price: Decimal(string: "775.50")!, quantity: 2)],
                                          common: Self.common)
        #expect(try Self.body([add]) == """
            [{"currency":"TRY","lang":"TR","name":"BASKET_OPERATIONS","pageUrl":"https://www.shop.example/urun/240-lv09","price":775.5,"productId":"240-LV09","quantity":"2","sessionId":"-5281452098739815420","step":"add","userId":"-897541074991628287"}]
            """)
        #expect(try Self.body([SegmentifyPageView(category: .basketPage, common: Self.common), checkout]) == """
            [{"category":"Basket Page","currency":"TRY","lang":"TR","name":"PAGE_VIEW","pageUrl":"https://www.shop.example/urun/240-lv09","sessionId":"-5281452098739815420","userId":"-897541074991628287"},{"currency":"TRY","lang":"TR","name":"CHECKOUT","pageUrl":"https://www.shop.example/urun/240-lv09","productList":[{"price":775.5,"productId":"240-LV09","quantity":"2"}],"sessionId":"-5281452098739815420","step":"basket","totalPrice":1551,"userId":"-897541074991628287"}]
            """)
    }

    @Test func aSearch() throws {
        #expect(try Self.body([SegmentifySearchEvent.beforeSearch(common: Self.common)]) == """
            [{"currency":"TRY","lang":"TR","name":"SEARCH","pageUrl":"https://www.shop.example/urun/240-lv09","sessionId":"-5281452098739815420","userId":"-897541074991628287"}]
            """)
        #expect(try Self.body([SegmentifySearchEvent.afterSearch(query: "koşu ayakkabısı", common: Self.common)]) == """
            [{"currency":"TRY","lang":"TR","name":"SEARCH","pageUrl":"https://www.shop.example/urun/240-lv09","query":"koşu ayakkabısı","sessionId":"-5281452098739815420","userId":"-897541074991628287"}]
            """)
    }

    @Test func refusedEventsAreNamed() {
        #expect(throws: SegmentifyEventError.self) { try Self.request([]) }
        let bad = SegmentifyCommonFields(userId: "", sessionId: "s")
        let error = #expect(throws: SegmentifyEventError.self) { try Self.request([SegmentifyPageView(category: .homePage, common: bad)]) }
        #expect(error?.field == "pageView.userId")
    }

    @Test func eventsBuiltByHand() throws {
        let event: JSONValue = ["name": "PRODUCT_VIEW", "productId": "240-LV09", "userId": "u", "sessionId": "s"]
        let request = try SegmentifyRecommendationsRequest(dataCenter: Self.dataCenter, apiKey: "k", origin: "o", objects: [event], language: "EN")
        #expect(String(decoding: request.body, as: UTF8.self) == #"[{"name":"PRODUCT_VIEW","productId":"240-LV09","sessionId":"s","userId":"u"}]"#)
        #expect(request.language == "EN")
        let nameless = #expect(throws: SegmentifyEventError.self) {
            try SegmentifyRecommendationsRequest(dataCenter: Self.dataCenter, apiKey: "k", origin: "o", objects: [["productId": "1"]], language: nil)
        }
        #expect(nameless?.field == "events[0]")
    }

    @Test func theLanguageChoosesTitles() throws {
        #expect(try Self.request([SegmentifyPageView(category: .homePage, common: Self.common)]).language == "TR")
    }
}
