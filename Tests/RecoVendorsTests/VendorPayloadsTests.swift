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

    @Test(arguments: [#"{"discovery":[],"merchandising":[]}"#, "[]", "{}", #""recoms""#])
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
        #expect(reply.report.notices.first?.message.contains("r{recomId}v{variantId}") == true)
    }

    @Test func anUnknownShapeNamesTheKeysItFound() {
        #expect {
            try VendorPayloads.decode(Data(#"{"discovery":[],"content":[]}"#.utf8))
        } throws: { error in
            let error = error as? PayloadError
            return error?.kind == .unrecognized && error?.description.hasSuffix(#"found an object with the keys "content", "discovery" at $"#) == true
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
            (error as? PayloadError)?.kind == .unrecognized && (error as? PayloadError)?.message.contains("not from bloomreach") == true
        }
    }
}
