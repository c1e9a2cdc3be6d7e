import Foundation
import Testing
import RecoVendors
import RecoKitTesting

@Suite("Payloads without recommendations")
struct VendorReplyDescriptionTests {
    @Test func aSegmentifyKeyReplyGivesTheVisitorsIdsAsText() throws {
        let description = try VendorPayloads.describe(SamplePayloads.json(named: "segmentify-keys"))
        #expect(description.kind == .segmentifyKeys)
        #expect(description.json["userId"] == "-897541074991628287")
        #expect(description.json["sessionId"] == "-2066154474596835328")
        #expect(try SegmentifyKeys.decode(JSONValue(parsing: "[-897541074991628287, \"s\"]")).userId == "-897541074991628287")
    }

    @Test(arguments: ["[]", #"["u",""]"#, #"["u",{}]"#, "{}"])
    func aMalformedKeyReplyIsAnError(text: String) {
        #expect(throws: PayloadError.self) { try SegmentifyKeys.decode(JSONValue(parsing: text)) }
    }

    @Test func aBloomreachAnswerKeepsTheGoodSegmentsAndReportsTheBadValue() throws {
        let description = try VendorPayloads.describe(SamplePayloads.json(named: "bloomreach-segments-bad-value"))
        #expect(description.kind == .bloomreachSegments)
        #expect(description.notices.map(\.path.description) == ["$.discovery[1].id"])
        #expect(description.json["discovery"]?.arrayValue?.count == 1)
        #expect(description.lines.contains { $0.hasPrefix("merchandising: 1 segment") })
    }

    @Test func aConnectifPurchaseIsCheckedByTheGuidesRulesAndKeepsItsMoneyExact() throws {
        let description = try VendorPayloads.describe(SamplePayloads.json(named: "connectif-purchase"))
        #expect(description.kind == .connectifPurchase)
        #expect(description.json[path: "purchase.totalPrice"]?.decimalValue == Decimal(string: "139.87"))
        #expect(description.lines.contains("3 items, total 139.87"))
    }

    @Test func anEightDigitsErrorReplyIsTheVendorsErrorWithItsMessage() throws {
        let json = try SamplePayloads.json(named: "8digits-error")
        #expect(VendorPayloads.detect(json) == .eightDigitsReply)
        do {
            _ = try VendorPayloads.describe(json)
            Issue.record("an 8digits error reply was described as a success")
        } catch {
            #expect(error.kind == .vendorError)
            #expect(error.message.contains("Authentication failed"))
        }
    }

    @Test func decodingRecommendationsFromAPayloadWithoutThemSaysWhatItIs() throws {
        let json = try SamplePayloads.json(named: "bloomreach-segments")
        do {
            _ = try VendorPayloads.decode(json)
            Issue.record("a segments answer decoded into widgets")
        } catch {
            #expect(error.kind == .unrecognized)
            #expect(error.message.contains("a Bloomreach segments answer"))
        }
    }
}
