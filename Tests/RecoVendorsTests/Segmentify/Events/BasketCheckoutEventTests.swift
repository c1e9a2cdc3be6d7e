import Foundation
import Testing
import RecoKit
import RecoVendors

@Suite("Segmentify BASKET_OPERATIONS and CHECKOUT")
struct BasketCheckoutEventTests {
    let common = EventFixtures.common
    let basket = [SegmentifyBasketProduct(productId: "25799809929", price: 78, quantity: 1)]

    @Test func addAndRemoveEncodeAsTheGuideTypesThem() throws {
        let add = SegmentifyBasketOperation(step: .add, productId: "25800400265", price: 358, quantity: 2, common: common)
        #expect(try add.json() == EventFixtures.json("""
        {"name":"BASKET_OPERATIONS","step":"add","productId":"25800400265","price":358,"quantity":"2",
         "userId":"-897541074991628287","sessionId":"-2066154474596835328","lang":"EN","currency":"USD",
         "pageUrl":"https://segmentify-shop.myshopify.com/products/asymmetric-dress-black"}
        """))
        let remove = try SegmentifyBasketOperation(step: .remove, productId: "25799860937", price: 578, quantity: 1, common: common).json()
        #expect(remove["step"]?.stringValue == "remove")
        // Quantity and price are optional: the catalogue's price and 1 are assumed.
        let bare = try SegmentifyBasketOperation(step: .add, productId: "25800400265", common: common).json()
        #expect(bare["price"] == nil && bare["quantity"] == nil)
    }

    @Test func aDecimalQuantityIsKeptExactly() throws {
        let cheese = SegmentifyBasketOperation(step: .add, productId: "PEYNIR-1KG", price: Decimal(string: "189.90")!,
                                               quantity: Decimal(string: "2.3")!, common: common)
        let json = try cheese.json()
        #expect(json["quantity"]?.stringValue == "2.3")
        #expect(JSONWriter.string(json["price"]!) == "189.9")
    }

    @Test func basketRefusalsNameTheField() {
        expectRefused(SegmentifyBasketOperation(step: .add, productId: "", common: common), field: "basketOperation.productId")
        #expect(expectRefused(SegmentifyBasketOperation(step: .add, productId: "1", quantity: 0, common: common),
                              field: "basketOperation.quantity") == "basketOperation.quantity: must be a number > 0, got 0")
        expectRefused(SegmentifyBasketOperation(step: .add, productId: "1", quantity: -1, common: common), field: "basketOperation.quantity")
        expectRefused(SegmentifyBasketOperation(step: .remove, productId: "1", price: -0.01, common: common), field: "basketOperation.price")
        expectAccepted(SegmentifyBasketOperation(step: .remove, productId: "1", price: 0, quantity: Decimal(string: "0.25")!, common: common))
    }

    @Test func theFourCheckoutStepsUseTheGuidesNames() throws {
        #expect(SegmentifyCheckout.Step.allCases.map(\.rawValue) == ["basket", "customer", "payment", "purchase"])
        for step in SegmentifyCheckout.Step.allCases {
            let checkout = SegmentifyCheckout(step: step, totalPrice: 78, products: basket, common: common)
            #expect(try checkout.json()["step"]?.stringValue == step.rawValue)
        }
    }

    @Test func purchaseEncodesFieldByField() throws {
        let products = basket + [SegmentifyBasketProduct(productId: "25800400265", price: Decimal(string: "179.50")!, currency: "USD",
                                                         quantity: 2)]
        let purchase = SegmentifyCheckout(step: .purchase, totalPrice: Decimal(string: "437.00")!, products: products,
                                          orderNo: "12313", common: common)
        #expect(try purchase.json() == EventFixtures.json("""
        {"name":"CHECKOUT","step":"purchase","totalPrice":437,"orderNo":"12313",
         "productList":[{"productId":"25799809929","price":78,"quantity":"1"},
                        {"productId":"25800400265","price":179.5,"currency":"USD","quantity":"2"}],
         "userId":"-897541074991628287","sessionId":"-2066154474596835328","lang":"EN","currency":"USD",
         "pageUrl":"https://segmentify-shop.myshopify.com/products/asymmetric-dress-black"}
        """))
    }

    @Test func viewBasketCarriesTheCartUrl() throws {
        let view = SegmentifyCheckout(step: .viewBasket, totalPrice: 78, products: basket,
                                      cartUrl: "https://segmentify-shop.myshopify.com/cart/25799809929:1", common: common)
        let json = try view.json()
        #expect(json["cartUrl"]?.stringValue == "https://segmentify-shop.myshopify.com/cart/25799809929:1")
        #expect(json["orderNo"] == nil)
    }

    @Test func checkoutRefusalsNameTheField() {
        expectRefused(SegmentifyCheckout(step: .viewBasket, totalPrice: 78, products: [], common: common), field: "checkout.products")
        expectRefused(SegmentifyCheckout(step: .viewBasket, totalPrice: -1, products: basket, common: common), field: "checkout.totalPrice")
        let products = basket + [SegmentifyBasketProduct(productId: " ")]
        expectRefused(SegmentifyCheckout(step: .paymentInfo, totalPrice: 78, products: products, common: common),
                      field: "checkout.products[1].productId")
        expectRefused(SegmentifyCheckout(step: .paymentInfo, totalPrice: 78,
                                         products: [SegmentifyBasketProduct(productId: "1", currency: "usd")], common: common),
                      field: "checkout.products[0].currency")
        expectRefused(SegmentifyCheckout(step: .paymentInfo, totalPrice: 78,
                                         products: [SegmentifyBasketProduct(productId: "1", quantity: 0)], common: common),
                      field: "checkout.products[0].quantity")
        let early = SegmentifyCheckout(step: .customerInfo, totalPrice: 78, products: basket, orderNo: "12313", common: common)
        #expect(expectRefused(early, field: "checkout.orderNo")
                == "checkout.orderNo: only the purchase step carries an order number, not customer")
        expectRefused(SegmentifyCheckout(step: .purchase, totalPrice: 78, products: basket, orderNo: "", common: common),
                      field: "checkout.orderNo")
        expectRefused(SegmentifyCheckout(step: .viewBasket, totalPrice: 78, products: basket, cartUrl: "cart", common: common),
                      field: "checkout.cartUrl")
        expectAccepted(SegmentifyCheckout(step: .purchase, totalPrice: 0, products: basket, orderNo: "A-1", common: common))
    }
}
