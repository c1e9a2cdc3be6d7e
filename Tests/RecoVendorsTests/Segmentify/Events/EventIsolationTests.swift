import Foundation
import Testing
import RecoKit
import RecoVendors

/// The official SDKs fill one shared mutable event object, so a field set for one event is sent again
/// with the next. Here every event is a value: these tests fail if any state were shared.
@Suite("Segmentify events do not leak into each other")
struct EventIsolationTests {
    @Test func fieldsOfOneEventNeverReachTheNext() throws {
        var common = EventFixtures.common
        common.params = ["campaign": "winter"]
        var first = EventFixtures.dress(common: common)
        first.colors = ["black"]
        first.oldPrice = 699
        let firstJSON = try first.json()

        // The next product view starts from the same common fields but sets none of the optional ones.
        var second = SegmentifyProductView(productId: "25800400265", title: "Wool Coat", url: "https://segmentify-shop.myshopify.com/products/wool-coat",
                                           image: "//cdn.shopify.com/coat.jpg", category: "Womenswear > Coats", price: 358, common: common)
        second.common.params["campaign"] = nil
        second.common.lang = "TR"
        let secondJSON = try second.json()
        #expect(secondJSON["colors"] == nil)
        #expect(secondJSON["oldPrice"] == nil)
        #expect(secondJSON["inStock"] == nil && secondJSON["brand"] == nil && secondJSON["noUpdate"] == nil)
        #expect(secondJSON["params"] == nil)
        #expect(secondJSON["lang"]?.stringValue == "TR")

        // And nothing done to the second changed the first, nor its JSON.
        #expect(first.common.lang == "EN")
        #expect(first.common.params["campaign"]?.stringValue == "winter")
        #expect(try first.json() == firstJSON)
    }

    @Test func aCopiedEventChangesAloneAndEventsOfOtherKindsShareNothing() throws {
        let original = SegmentifyCheckout(step: .viewBasket, totalPrice: 78, products: [SegmentifyBasketProduct(productId: "25799809929")],
                                          cartUrl: "https://segmentify-shop.myshopify.com/cart", common: EventFixtures.common)
        var purchase = original
        purchase.step = .purchase
        purchase.orderNo = "12313"
        purchase.cartUrl = nil
        purchase.products.append(SegmentifyBasketProduct(productId: "25800400265", quantity: 2))
        #expect(original.step == .viewBasket && original.orderNo == nil && original.products.count == 1)
        #expect(try original.json()["orderNo"] == nil)
        #expect(try purchase.json()["cartUrl"] == nil)

        // A basket operation after a product view carries only its own fields.
        let view = try EventFixtures.dress().json()
        let add = try SegmentifyBasketOperation(step: .add, productId: "25799860937", common: EventFixtures.common).json()
        let shared: Set<String> = ["name", "userId", "sessionId", "lang", "currency", "pageUrl", "productId"]
        let leaked = Set(view.objectValue!.keys).subtracting(shared)
        #expect(leaked.contains("title") && leaked.contains("noUpdate"))
        #expect(leaked.allSatisfy { add[$0] == nil }, "leaked into the basket event: \(leaked.filter { add[$0] != nil })")
    }

    @Test func eventsBuiltConcurrentlyFromOneTemplateStayApart() async throws {
        let template = EventFixtures.dress()
        let results = try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
            for index in 0..<50 {
                group.addTask {
                    var event = template
                    event.productId = "P-\(index)"
                    event.common.userId = "U-\(index)"
                    if index.isMultiple(of: 2) { event.labels = ["even"] }
                    return (index, try event.json())
                }
            }
            var all: [Int: JSONValue] = [:]
            for try await (index, json) in group { all[index] = json }
            return all
        }
        for (index, json) in results {
            #expect(json["productId"]?.stringValue == "P-\(index)")
            #expect(json["userId"]?.stringValue == "U-\(index)")
            #expect((json["labels"] != nil) == index.isMultiple(of: 2))
        }
        #expect(template.productId == "25799860937" && template.labels == nil)
    }
}
