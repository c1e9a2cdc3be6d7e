import Foundation
import Testing
import RecoKit

/// `recokit decode` on payloads that carry no recommendations: described, checked, and their errors reported.
@Suite("recokit decode: other vendor replies")
struct DecodeOtherRepliesTests {
    typealias CLI = RecokitChildProcess

    @Test func describesASegmentsAnswerWithItsNotices() throws {
        let result = try CLI.run(["decode", "Samples/Payloads/bloomreach-segments-bad-value.json"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("This is a Bloomreach segments answer (bloomreach): it carries no recommendations."))
        #expect(result.stdout.contains("invalidSegment: expected a string, found a number; segment left out at $.discovery[1].id"))
    }

    @Test func printsJSONForPrograms() throws {
        let result = try CLI.run(["decode", "--json", "Samples/Payloads/segmentify-keys.json"])
        #expect(result.status == 0)
        let json = try JSONValue(parsing: result.stdout)
        #expect(json["kind"] == "segmentifyKeys")
        #expect(json[path: "payload.userId"] == "-897541074991628287")
    }

    @Test func anEightDigitsErrorIsOneLineAndAFailingExit() throws {
        let result = try CLI.run(["decode", "Samples/Payloads/8digits-error.json"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["error: Samples/Payloads/8digits-error.json: the vendor answered 1: Authentication failed: invalid username or password at $.result.code"])
    }

    @Test func theVendorCanBeNamed() throws {
        let result = try CLI.run(["decode", "--vendor", "connectif", "Samples/Payloads/connectif-purchase.json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("purchase purchase-e3418b5a-8709-4593-a7c8-d8a7f12df737"))
    }
}
