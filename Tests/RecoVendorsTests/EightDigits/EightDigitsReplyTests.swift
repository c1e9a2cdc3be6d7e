import Foundation
import Testing
@testable import RecoVendors

@Suite("8digits replies")
struct EightDigitsReplyTests {
    @Test func theSamplesDecode() throws {
        #expect(try EightDigitsReply.authToken(VendorPayloadSamples.data("8digits-auth.json")) == "7b3f0c9e2a4d4e51b8c6f1d0a9e85c42")
        #expect(try EightDigitsReply.visit(VendorPayloadSamples.data("8digits-visit.json"))
            == EightDigitsVisitStarted(sessionCode: "74164c40-0e1c-4d0b-98fa-5a02c7a03707", hitCode: "35103347"))
        #expect(try EightDigitsReply.hitCode(VendorPayloadSamples.data("8digits-hit.json")) == "3281359")
        #expect(try EightDigitsReply.badges(VendorPayloadSamples.data("8digits-badges.json"))
            == EightDigitsBadges(ids: ["4f0a9e450364c808e94bfd32", "4f0aa1c20364c808e94bfd7e"], count: 2))
        #expect(try EightDigitsReply.score(VendorPayloadSamples.data("8digits-score.json")) == 30)
        try EightDigitsReply.acknowledgement(VendorPayloadSamples.data("8digits-ack.json"))
        #expect(try EightDigitsReply.decode(VendorPayloadSamples.data("8digits-ack.json")) == nil)
    }

    @Test func aNonZeroCodeIsAnErrorCarryingTheMessage() throws {
        let data = try VendorPayloadSamples.data("8digits-error.json")
        for read in [{ _ = try EightDigitsReply.authToken(data) }, { try EightDigitsReply.acknowledgement(data) }, { _ = try EightDigitsReply.score(data) }] {
            #expect {
                try read()
            } throws: { error in
                guard let error = error as? PayloadError else { return false }
                return error.kind == .vendorError && error.vendorCode == "1"
                    && error.description == "the vendor answered 1: Authentication failed: invalid username or password at $.result.code"
            }
        }
        #expect(EightDigitsReply.serverFailure(data)?.code == 1)
        #expect(EightDigitsReply.serverFailure(data)?.message == "Authentication failed: invalid username or password")
        #expect(EightDigitsReply.serverFailure(Data(#"{"result":{"code":0},"data":{}}"#.utf8)) == nil)
    }

    @Test func numbersWhereStringsAreExpectedAreAccepted() throws {
        #expect(try EightDigitsReply.hitCode(Data(#"{"result":{"code":0},"data":{"hitCode":3281359}}"#.utf8)) == "3281359")
        #expect(try EightDigitsReply.visit(Data(#"{"result":{"code":"0"},"data":{"sessionCode":"s-1"}}"#.utf8))
            == EightDigitsVisitStarted(sessionCode: "s-1", hitCode: nil))
        #expect(try EightDigitsReply.score(Data(#"{"result":{"code":0},"data":{"score":"45"}}"#.utf8)) == 45)
    }

    @Test(arguments: [
        (#"{"data":{"authToken":"t"}}"#, #"missing required key "result" at $"#),
        (#"{"result":{"message":"ok"}}"#, #"missing required key "code" at $.result"#),
        (#"{"result":{"code":"zero"}}"#, "expected a whole number, found a string at $.result.code"),
        (#"{"result":{"code":0}}"#, #"missing required key "data" at $"#),
        (#"{"result":{"code":0},"data":{"authToken":""}}"#, "expected a non-empty string, found a string at $.data.authToken"),
        (#"{"result":{"code":0},"data":{"authToken":null}}"#, #"missing required key "authToken" at $.data"#),
        (#"[0]"#, "expected an object, found an array at $"),
    ])
    func malformedAuthRepliesSayWhatAndWhere(json: String, message: String) {
        #expect {
            try EightDigitsReply.authToken(Data(json.utf8))
        } throws: { error in
            (error as? PayloadError)?.description == message
        }
    }

    @Test(arguments: [
        (#"{"result":{"code":0},"data":{"badges":["a",7],"count":2}}"#, "expected a badge id string, found a number at $.data.badges[1]"),
        (#"{"result":{"code":0},"data":{"badges":"a","count":1}}"#, "expected an array of badge ids, found a string at $.data.badges"),
        (#"{"result":{"code":0},"data":{"badges":[]}}"#, #"missing required key "count" at $.data"#),
    ])
    func malformedBadgesSayWhatAndWhere(json: String, message: String) {
        #expect {
            try EightDigitsReply.badges(Data(json.utf8))
        } throws: { error in
            (error as? PayloadError)?.description == message
        }
    }
}
