import Foundation
import Testing
import RecoKit

private struct Shoe: RecommendableProduct {
    let productId: String
    let name: String
    let price: Decimal
}

@Suite("Widgets of the caller's model")
struct RecommendationsTests {
    /// Two widgets as a vendor decoder would produce them: one with a bad product, one with products the filter removes.
    let reply: Recommendations<RawProduct> = {
        func products(_ json: String, at base: JSONPath) -> [(RawProduct, JSONPath)] {
            try! JSONValue(parsing: json).arrayValue!.enumerated().map { index, value in
                (try! RawProduct(value), base.appending(index: index))
            }
        }
        let first = Widget(vendor: .segmentify, instanceId: "hp_1", interactionId: "a1", title: "For you",
                           rawProducts: products(#"[{"productId":"p1","name":"One","price":"10.50","brand":"A"},{"productId":"p2","price":3,"brand":"A"},{"productId":"p3","name":"Three","price":7,"brand":"B"}]"#, at: [.key("w1")]),
                           path: [.key("w1")])
        let second = Widget(vendor: .segmentify, instanceId: "hp_2", interactionId: "a2", title: "Also",
                            rawProducts: products(#"[{"productId":"p4","name":"Four","price":1,"brand":"B"}]"#, at: [.key("w2")]),
                            path: [.key("w2")])
        return Recommendations(widgets: [first, second])
    }()

    @Test func aBadProductIsReportedAndTheRestArePositionedFromOne() throws {
        let shoes = reply.decoded(as: Shoe.self)
        #expect(shoes.widgets.map(\.instanceId) == ["hp_1", "hp_2"])
        let first = try #require(shoes.widget(instanceId: "hp_1"))
        #expect(first.products.map(\.productId) == ["p1", "p3"])
        #expect(first.items.map(\.position) == [1, 2])
        #expect(first.products[0].price == Decimal(string: "10.5"))
        #expect(first.items[1].raw["brand"] == "B")
        #expect(shoes.report.failures == [ProductFailure(index: 1, productId: "p2", instanceId: "hp_1", path: JSONPath(components: [.key("w1"), .index(1), .key("name")]), reason: #"missing required key "name""#)])
    }

    @Test func lookupsFindAProductAndItsPosition() {
        let shoes = reply.decoded(as: Shoe.self)
        #expect(shoes.item(instanceId: "hp_1", productId: "p3")?.position == 2)
        #expect(shoes.item(instanceId: "hp_1", productId: "p4") == nil)
        #expect(shoes.item(instanceId: "nope", productId: "p1") == nil)
    }

    @Test func filtersRunOnRawProductsAndEmptyWidgetsAreReportedNotShown() {
        let onlyA = reply.decoded(as: Shoe.self, filters: [ProductFilter(name: "brand", values: ["a"])])
        #expect(onlyA.widgets.map(\.instanceId) == ["hp_1"])
        #expect(onlyA.widgets.first?.products.map(\.productId) == ["p1"])
        #expect(onlyA.report.notices(.emptyWidget).map(\.path) == [[.key("w2")]])
        #expect(onlyA.report.notices(.filteredOut).count == 2)
    }

    @Test func selectingFieldsTheModelNeedsStillDecodesAndUnknownFieldsAreReported() {
        let selected = reply.decoded(as: Shoe.self, fields: .only(["name", "price", "colour"]))
        #expect(selected.widgets.first?.items.first?.raw.fields.keys.sorted() == ["name", "price", "productId"])
        #expect(selected.report.notices(.fieldNotFound).map(\.message) == [#"the selected field "colour" is in no product"#])
    }

    @Test func productIdOnlyMakesAModelThatNeedsMoreFailEveryProduct() {
        let bare = reply.decoded(as: Shoe.self, fields: .productIdOnly)
        #expect(bare.widgets.isEmpty)
        #expect(bare.report.failures.count == 4)
        #expect(reply.decoded(as: RawProduct.self, fields: .productIdOnly).widgets.flatMap(\.products).map(\.productId) == ["p1", "p2", "p3", "p4"])
    }
}
