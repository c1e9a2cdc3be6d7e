import Foundation
import RecoKitTesting
import RecoVendors
import Testing

@Suite("Vendor payload recognition")
struct VendorPayloadsTests {
    @Test(arguments: [
        (#"{"recoms":[]}"#, VendorPayloadKind.retenoRecommendations),
        (#"{"statusCode":"SUCCESS","responses":[[]]}"#, .segmentifyRecommendations),
        (#"{"statusCode":"NO_ACCOUNT"}"#, .segmentifyRecommendations),
        (#"{"responses":[]}"#, .segmentifyRecommendations),
        (#"{"statusCode":"SUCCESS","responses":[[]],"search":[[{"products":[]}]]}"#, .segmentifySearch),
        (#"{"search":[[{"products":[]}]]}"#, .segmentifySearch),
        (#"{"statusCode":"SUCCESS","responses":[[{"type":"recommendProducts"}]],"search":[[]]}"#, .segmentifyRecommendations),
    ])
    func recognisesShapes(payload: String, kind: VendorPayloadKind) throws {
        let json = try JSONValue(parsing: payload)
        #expect(VendorPayloads.detect(json) == kind)
        #expect(VendorPayloads.detectVendor(json) == kind.vendor)
    }

    @Test(arguments: [#"{"answer":[],"more":[]}"#, "[]", "[1,2]", "{}", #""recoms""#])
    func recognisesNothingElse(payload: String) throws {
        #expect(VendorPayloads.detect(try JSONValue(parsing: payload)) == nil)
    }

    @Test func decodesRetenoByShape() throws {
        let variant = try RetenoVariantId("r1107v1482")
        let reply = try VendorPayloads.decode(SamplePayloads.data(named: "reteno-recoms-full"), variantId: variant, title: "Picked for you")
        #expect(reply.widgets.map(\.instanceId) == ["r1107v1482"])
        #expect(reply.widgets.first?.title == "Picked for you")
        #expect(reply.widgets.first?.items.count == 10)
        #expect(reply.report.notices.isEmpty)
    }

    @Test func aRetenoReplyWithoutItsVariantSaysSo() throws {
        let reply = try VendorPayloads.decode(SamplePayloads.data(named: "reteno-recoms-fields"))
        #expect(reply.widgets.first?.instanceId == VendorPayloads.unnamedRetenoVariant)
        #expect(reply.widgets.first?.vendor == .reteno)
        #expect(reply.report.notices.map(\.kind) == [.unnamedVariant])
        // About the whole reply: its place is bracketed, not read as the end of its sentence ("to track it at $").
        #expect(reply.report.notices.first?.description.hasSuffix("to track it (at $, the whole reply)") == true)
        #expect(reply.report.notices.first?.message.contains("r{recomId}v{variantId}") == true)
    }

    @Test func anUnknownShapeNamesTheKeysItFound() {
        #expect {
            try VendorPayloads.decode(Data(#"{"answer":[],"content2":[]}"#.utf8))
        } throws: { error in
            let error = error as? PayloadError
            return error?.kind == .unrecognized && error?.description.hasSuffix(#"found an object with the keys "answer", "content2" at $"#) == true
        }
    }

    @Test func aNamedVendorIsTrustedOverTheShape() {
        #expect {
            try VendorPayloads.decode(Data(#"{"statusCode":"SUCCESS","responses":[[]]}"#.utf8), vendor: .reteno)
        } throws: { error in
            (error as? PayloadError)?.kind == .missingKey && (error as? PayloadError)?.message == #"missing required key "recoms""#
        }
    }

    @Test func vendorsWithoutRecommendationPayloadsAreRefused() {
        #expect {
            try VendorPayloads.decode(Data(#"{"recoms":[]}"#.utf8), vendor: .bloomreach)
        } throws: { error in
            (error as? PayloadError)?.kind == .unrecognized && (error as? PayloadError)?.message.contains("a Bloomreach segments answer, which carries no recommendations") == true
        }
        #expect {
            try VendorPayloads.decode(Data(#"{"recoms":[]}"#.utf8), vendor: Vendor(rawValue: "acme"))
        } throws: { error in
            (error as? PayloadError)?.message.contains("not from acme") == true
        }
    }
    static let segmentifyReply = #"""
    {"statusCode":"SUCCESS","timestamp":1732170000000,"responses":[[
      {"type":"sendBannerDetails","params":{}},
      {"type":"recommendProducts","params":{
        "notificationTitle":"You may also like","notificationTitleMap":"{\"TR\":\"Bunlar da ilginizi çekebilir\"}",
        "instanceId":"act_7","actionId":"123",
        "dynamicItems":"[{\"recommendationSource\":\"RECOMMENDATION_SMART_OFFERS\",\"timeFrame\":\"TODAY\",\"score\":\"NONE\",\"itemCount\":\"2\"}]",
        "recommendedProducts":{"RECOMMENDATION_SMART_OFFERS|TODAY|NONE":[
          {"productId":"p1","name":"Koşu Ayakkabısı","price":1299.9},
          {"productId":"p2","name":"Tayt","price":"349.99"}]}}}
    ]]}
    """#

    @Test func decodesSegmentifyRecommendationsByShape() throws {
        let reply = try VendorPayloads.decode(Data(Self.segmentifyReply.utf8), language: "TR")
        let widget = try #require(reply.widgets.first)
        #expect(reply.widgets.count == 1)
        #expect(widget.vendor == .segmentify)
        #expect(widget.instanceId == "act_7")
        #expect(widget.interactionId == "123")
        #expect(widget.title == "Bunlar da ilginizi çekebilir")
        #expect(widget.products.map(\.productId) == ["p1", "p2"])
        #expect(reply.report.notices(.skippedItem).map(\.path.description) == ["$.responses[0][0]"])
        #expect(try VendorPayloads.decode(Data(Self.segmentifyReply.utf8), vendor: .segmentify).widgets.first?.title == "You may also like")
    }

    @Test func aSegmentifyErrorEnvelopeIsAVendorError() {
        #expect {
            try VendorPayloads.decode(Data(#"{"statusCode":"NO_ACCOUNT"}"#.utf8))
        } throws: { error in
            (error as? PayloadError)?.kind == .vendorError && (error as? PayloadError)?.vendorCode == "NO_ACCOUNT"
        }
    }

    @Test func decodesSegmentifySearchAsOneWidget() throws {
        let payload = #"""
        {"statusCode":"SUCCESS","search":[[{"campaign":{"instanceId":"BEFORE_SEARCH","stringSearchAssetTextMap":{"EN":{"popularProductsText":"Popular now"}}},
          "products":[{"productId":"s1","name":"Trail shoe"},{"productId":"s2","name":"Rain jacket"}]}]]}
        """#
        let reply = try VendorPayloads.decode(Data(payload.utf8), language: "EN")
        let widget = try #require(reply.widgets.first)
        #expect(widget.instanceId == "bs_product")
        #expect(widget.interactionId == "BEFORE_SEARCH")
        #expect(widget.title == "Popular now")
        #expect(widget.items.map(\.path.description) == ["$.search[0][0].products[0]", "$.search[0][0].products[1]"])
    }

    @Test func aSearchThatFoundNothingSaysSo() throws {
        let payload = #"{"search":[[{"campaign":{"instanceId":"SEARCH"},"products":[]}]]}"#
        let reply = try VendorPayloads.decode(Data(payload.utf8))
        #expect(reply.widgets.isEmpty)
        #expect(reply.report.notices.map(\.kind) == [.emptyWidget])
        #expect(reply.report.notices.first?.message == "the after search reply (product) has no products to show")
    }

    @Test func everySamplePayloadIsRecognised() throws {
        let names = try SamplePayloads.names
        #expect(names.count >= 2)
        for name in names {
            let expected: VendorPayloadKind = name.hasPrefix("reteno") ? .retenoRecommendations
                : name.hasPrefix("segmentify-search") ? .segmentifySearch
                : name.hasPrefix("segmentify-keys") ? .segmentifyKeys
                : name.hasPrefix("bloomreach") ? .bloomreachSegments
                : name.hasPrefix("connectif") ? .connectifPurchase
                : name.hasPrefix("8digits") ? .eightDigitsReply : .segmentifyRecommendations
            #expect(VendorPayloads.detect(try SamplePayloads.json(named: name)) == expected, "\(name)")
        }
    }
}
