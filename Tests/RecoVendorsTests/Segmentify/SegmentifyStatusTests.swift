import Foundation
import Testing
import RecoVendors

@Suite("Segmentify status codes")
struct SegmentifyStatusTests {
    @Test func theErrorSampleIsAVendorErrorNamingTheCodeAndItsMeaning() throws {
        let data = try SamplePayload.data("segmentify-error.json")
        do {
            _ = try SegmentifyRecommendations.decode(data)
            Issue.record("an error envelope decoded")
        } catch {
            #expect(error.kind == .vendorError)
            #expect(error.vendorCode == "NO_DOMAIN_APIKEY_MATCH")
            #expect(error.path.description == "$.statusCode")
            #expect(error.description.contains("NO_DOMAIN_APIKEY_MATCH"))
            #expect(error.description.contains("Origin header"))
        }
        #expect(throws: PayloadError.self) { try SegmentifySearch.decode(data) }
    }

    @Test(arguments: SegmentifyStatus.known.filter { !$0.isSuccess })
    func everyDocumentedErrorCodeIsAVendorError(status: SegmentifyStatus) {
        let json: JSONValue = ["statusCode": .string(status.code), "responses": [[]]]
        #expect {
            _ = try SegmentifyRecommendations.decode(json)
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.vendorCode == status.code && error.message.contains(status.meaning)
        }
    }

    @Test func documentedMeanings() {
        #expect(SegmentifyStatus.known.count == 10)
        #expect(Set(SegmentifyStatus.known.map(\.code)).count == 10)
        #expect(SegmentifyStatus(code: "NO_API_KEY").meaning.contains("apiKey"))
        #expect(SegmentifyStatus(code: "NO_USERID").meaning.contains("userId"))
        #expect(SegmentifyStatus(code: "NO_SESSIONID").meaning.contains("sessionId"))
        #expect(SegmentifyStatus(code: "BAD_INPUT").meaning.contains("JSON array"))
        #expect(SegmentifyStatus(code: "SUCCESS").isSuccess)
        #expect(!SegmentifyStatus(code: "NO_EVENT").isSuccess)
    }

    @Test func anUnknownCodeIsStillAnErrorNamingIt() throws {
        let status = SegmentifyStatus(code: "RATE_LIMITED")
        #expect(!status.isSuccess)
        #expect(status.meaning.contains("does not document"))
        do {
            _ = try SegmentifyRecommendations.decode(Data(#"{"statusCode":"RATE_LIMITED","responses":[[]]}"#.utf8))
            Issue.record("an unknown status decoded")
        } catch {
            #expect(error.vendorCode == "RATE_LIMITED")
            #expect(error.description.contains("RATE_LIMITED"))
        }
    }

    @Test func aReplyWithoutStatusCodeIsRead() throws {
        let reply = try SegmentifyRecommendations.decode(Data(#"{"responses":[[]]}"#.utf8))
        #expect(reply.widgets.isEmpty)
    }
}
