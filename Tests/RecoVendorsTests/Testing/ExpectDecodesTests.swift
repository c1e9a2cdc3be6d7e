import Foundation
import RecoKitTesting
import RecoVendors
import Testing

@Suite("expectDecodes")
struct ExpectDecodesTests {
    let variant = try! RetenoVariantId("r1107v1482")

    @Test func aGoodPayloadRecordsNothingAndReturnsTheModels() throws {
        // Any issue recorded here would fail this test.
        let reply = try expectDecodes(Recommendation.self, fromSample: "reteno-recoms-full", vendor: .reteno, variantId: variant)
        #expect(reply.widgets.first?.products.count == 10)
        #expect(reply.widgets.first?.instanceId == "r1107v1482")
        #expect(reply.report.failures.isEmpty)
    }

    struct ShopProduct: RecommendableProduct {
        let productId: String
        let name: String
        let price: Decimal
        let url: URL
        let category: [String]
    }

    @Test func aSegmentifySampleIsRecognisedAndDecoded() throws {
        let reply = try expectDecodes(ShopProduct.self, fromSample: "segmentify-product-page", language: "TR")
        #expect(reply.widgets.count == 4)
        #expect(reply.widgets.allSatisfy { $0.vendor == .segmentify && !$0.items.isEmpty })
        #expect(reply.widgets.first?.title == "Bunlar da İlginizi Çekebilir")
        #expect(reply.report.failures.isEmpty)
    }

    @Test func everyFailedProductIsListedWithPathAndReason() throws {
        let payload = #"""
        {"recoms":[
          {"productId":"240-LV09","name":"Luma Yoga For Life","price":32},
          {"productId":"MH07","price":54},
          {"name":"No id","price":10},
          {"productId":"WJ12","name":"Olivia 1/4 Zip Light Jacket","price":"n/a"},
          {"productId":"WS03","name":"Iris Workout Top","price":29}
        ]}
        """#
        var reply: Recommendations<Recommendation>?
        try withKnownIssue {
            reply = try expectDecodes(Recommendation.self, from: Data(payload.utf8), variantId: variant)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.hasPrefix("3 products did not decode into Recommendation:")
                && text.contains(#"product 1 (MH07) of r1107v1482: missing required key "name" at $.recoms[1].name"#)
                && text.contains(#"product 2 of r1107v1482: missing required key "productId" at $.recoms[2]"#)
                && text.contains("product 3 (WJ12) of r1107v1482: ") && text.contains("at $.recoms[3].price")
        }
        #expect(reply?.widgets.first?.products.map(\.productId) == ["240-LV09", "WS03"])
        #expect(reply?.report.failures.count == 3)
    }

    @Test func aModelMissingASelectedFieldIsListedToo() throws {
        try withKnownIssue {
            try expectDecodes(Recommendation.self, fromSample: "reteno-recoms-fields", variantId: variant, fields: .productIdOnly)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.hasPrefix("6 products did not decode") && (0..<6).allSatisfy { text.contains("at $.recoms[\($0)].name") }
        }
    }

    @Test func anUnreadablePayloadThrowsItsPayloadError() {
        #expect {
            try expectDecodes(Recommendation.self, from: Data(#"{"recoms":[{"productId":"#.utf8), vendor: .reteno)
        } throws: { error in
            (error as? PayloadError)?.kind == .invalidJSON && (error as? PayloadError)?.path.description == "$.recoms[0].productId"
        }
    }
}
