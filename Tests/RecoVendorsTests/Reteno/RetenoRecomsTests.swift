import Foundation
import RecoKitTesting
import RecoVendors
import Testing

/// A caller's model, as Reteno's guide shows it: the feed's `descr` read as `description`.
struct Recommendation: RecommendableProduct, Equatable {
    let productId: String
    let name: String
    let description: String?
    let imageUrl: URL?
    let price: Decimal
    enum CodingKeys: String, CodingKey {
        case productId, name, description = "descr", imageUrl, price
    }
}

@Suite("Reteno recommendations")
struct RetenoRecomsTests {
    let variant = try! RetenoVariantId("r1107v1482")

    @Test func fullFeedBecomesOneWidgetInOrder() throws {
        let reply = try RetenoRecoms.decode(SamplePayloads.data(named: "reteno-recoms-full"), variantId: variant, title: "You may also like")
        #expect(reply.report.failures.isEmpty && reply.report.notices.isEmpty)
        #expect(reply.widgets.count == 1)
        let widget = try #require(reply.widgets.first)
        #expect(widget.vendor == .reteno)
        #expect(widget.instanceId == "r1107v1482")
        #expect(widget.interactionId == "r1107v1482")
        #expect(widget.title == "You may also like")
        #expect(widget.path.description == "$.recoms")
        #expect(widget.products.map(\.productId) == ["240-LV09", "24-WG080", "24-UG06", "MH07", "WJ12", "24-MB02", "WS03", "MP01", "24-WG085", "WSH04"])
        #expect(widget.items.map(\.position) == Array(1...10))
        #expect(widget.items.map(\.path.description) == (0..<10).map { "$.recoms[\($0)]" })
        #expect(widget.items[3].raw["tags_size"]?.stringValue == "XS, S, M, L, XL")
        #expect(reply.item(instanceId: "r1107v1482", productId: "WS03")?.position == 7)
    }

    @Test func titleDefaultsToEmpty() throws {
        let reply = try RetenoRecoms.decode(Data(#"{"recoms":[{"productId":"MH07"}]}"#.utf8), variantId: variant)
        #expect(reply.widgets.first?.title == "")
    }

    @Test func callerModelReadsDescrAndExactPrices() throws {
        let reply = try RetenoRecoms.decode(SamplePayloads.data(named: "reteno-recoms-full"), variantId: variant).decoded(as: Recommendation.self)
        #expect(reply.report.failures.isEmpty)
        let products = try #require(reply.widgets.first).products
        #expect(products.count == 10)
        #expect(products[0] == Recommendation(
            productId: "240-LV09", name: "Luma Yoga For Life",
            description: "Luma Yoga For Life is a 60-minute video: breathing, balance and flexibility for every level.",
            imageUrl: URL(string: "https://shop.example.com/media/catalog/product/l/t/lt02.jpg"), price: 32))
        // The backpack's price is the numeric string "59.99": it decodes exactly.
        #expect(products[5].productId == "24-MB02")
        #expect(products[5].price == Decimal(string: "59.99"))
        #expect(products[5].price.description == "59.99")
    }

    @Test func fieldProjectedFeedDecodesWithoutDescr() throws {
        let reply = try RetenoRecoms.decode(SamplePayloads.data(named: "reteno-recoms-fields"), variantId: variant).decoded(as: Recommendation.self)
        #expect(reply.report.failures.isEmpty)
        let widget = try #require(reply.widgets.first)
        #expect(widget.products.map(\.productId) == ["240-LV09", "24-WG080", "24-UG06", "MH07", "24-MB02", "WSH04"])
        #expect(widget.products.allSatisfy { $0.description == nil })
        #expect(widget.items.allSatisfy { Set($0.raw.fields.keys) == ["productId", "name", "imageUrl", "price"] })
        #expect(widget.products[4].price == Decimal(string: "59.99"))
    }

    @Test func localFieldSelectionAndFilters() throws {
        let raw = try RetenoRecoms.decode(SamplePayloads.data(named: "reteno-recoms-full"), variantId: variant)
        let yoga = raw.decoded(as: RawProduct.self, fields: .only(["name", "price", "colour"]), filters: [ProductFilter(name: "tags_activity", values: ["yoga"])])
        #expect(yoga.widgets.first?.products.map(\.productId) == ["240-LV09", "24-WG080", "24-WG085"])
        #expect(yoga.widgets.first?.items.map(\.position) == [1, 2, 3])
        #expect(yoga.widgets.first?.products.first.map { Set($0.fields.keys) } == ["productId", "name", "price"])
        #expect(yoga.report.notices(.filteredOut).count == 1)
        #expect(yoga.report.notices(.fieldNotFound).map(\.message) == [#"the selected field "colour" is in no product"#])
        // A model that needs a field the selection left out fails, and each product is reported.
        let projected = raw.decoded(as: Recommendation.self, fields: .productIdOnly)
        #expect(projected.widgets.isEmpty)
        #expect(projected.report.failures.count == 10)
        #expect(projected.report.failures.first?.path.description == "$.recoms[0].name")
    }

    @Test func badProductsAreReportedNotDropped() throws {
        let payload = #"""
        {"recoms":[
          {"productId":"240-LV09","name":"Luma Yoga For Life","price":32},
          "MH07",
          {"name":"No id","price":10},
          {"productId":"","name":"Empty id","price":10},
          {"productId":1042,"name":"Numeric id","price":12.5},
          {"productId":["x"],"name":"Array id"},
          {"productId":"WJ12","name":"Olivia 1/4 Zip Light Jacket","price":"n/a"}
        ]}
        """#
        let raw = try RetenoRecoms.decode(Data(payload.utf8), variantId: variant)
        #expect(raw.widgets.first?.products.map(\.productId) == ["240-LV09", "1042", "WJ12"])
        #expect(raw.widgets.first?.items.map(\.path.description) == ["$.recoms[0]", "$.recoms[4]", "$.recoms[6]"])
        #expect(raw.report.failures.map(\.path.description) == ["$.recoms[1]", "$.recoms[2]", "$.recoms[3].productId", "$.recoms[5].productId"])
        #expect(raw.report.failures.map(\.index) == [1, 2, 3, 5])
        #expect(raw.report.failures.allSatisfy { $0.instanceId == "r1107v1482" })
        #expect(raw.report.failures[0].reason == "expected a product object, found a string")
        #expect(raw.report.failures[1].reason == #"missing required key "productId""#)
        #expect(raw.report.failures[2].reason == "productId is an empty string")

        let models = raw.decoded(as: Recommendation.self)
        #expect(models.widgets.first?.products.map(\.productId) == ["240-LV09", "1042"])
        #expect(models.widgets.first?.products[1].price == Decimal(string: "12.5"))
        #expect(models.report.failures.count == 5)
        let priceFailure = try #require(models.report.failures.last)
        #expect(priceFailure.productId == "WJ12")
        #expect(priceFailure.path.description == "$.recoms[6].price")
        #expect(priceFailure.reason.contains("\"n/a\""))
    }

    @Test func missingRecomsIsAClearError() {
        #expect {
            _ = try RetenoRecoms.decode(Data(#"{"products":[{"productId":"MH07"}]}"#.utf8), variantId: variant)
        } throws: { error in
            let error = error as? PayloadError
            return error?.kind == .missingKey && error?.description == #"missing required key "recoms" at $"#
        }
    }

    @Test(arguments: [
        (#"{"recoms":{"productId":"MH07"}}"#, "expected an array of products, found an object at $.recoms"),
        (#"{"recoms":null}"#, "expected an array of products, found null at $.recoms"),
        (#"[{"productId":"MH07"}]"#, #"expected an object with a "recoms" array (a Reteno recommendations reply), found an array at $"#),
    ])
    func wrongTypesAreTypeMismatches(payload: String, description: String) {
        #expect {
            _ = try RetenoRecoms.decode(Data(payload.utf8), variantId: variant)
        } throws: { error in
            let error = error as? PayloadError
            return error?.kind == .typeMismatch && error?.description == description
        }
    }

    @Test func truncatedJSONNamesPathLineAndColumn() {
        #expect {
            _ = try RetenoRecoms.decode(Data("{\"recoms\":[\n{\"productId\":\"MH07\",\"name\":".utf8), variantId: variant)
        } throws: { error in
            let error = error as? PayloadError
            return error?.kind == .invalidJSON && error?.path.description == "$.recoms[0].name" && error?.position?.line == 2
        }
    }

    @Test func emptyRecomsShowNoWidgetAndSaySo() throws {
        let reply = try RetenoRecoms.decode(Data(#"{"recoms":[]}"#.utf8), variantId: variant)
        #expect(reply.widgets.isEmpty)
        #expect(reply.report.notices(.emptyWidget).map(\.path.description) == ["$.recoms"])
        #expect(reply.report.notices.first?.message == "r1107v1482 has no products to show: Reteno sent no products")
        let allBad = try RetenoRecoms.decode(Data(#"{"recoms":[1,2]}"#.utf8), variantId: variant)
        #expect(allBad.widgets.isEmpty)
        #expect(allBad.report.failures.count == 2)
        #expect(allBad.report.notices.first?.message == "r1107v1482 has no products to show: none of its 2 products could be read")
    }
}
