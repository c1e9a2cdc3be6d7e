import Foundation
import RecoKitTesting
import RecoVendors
import Testing

/// Every vendor decoder that takes bytes holds them to the caller's ``JSONLimits`` (for recommendation
/// replies, ``ReplyLimits/json``).
@Suite struct VendorLimitsTests {
    private func limitError(_ decode: () throws -> Void) -> PayloadError? {
        do {
            try decode()
            return nil
        } catch let error as PayloadError {
            return error.kind == .limitExceeded ? error : nil
        } catch {
            return nil
        }
    }

    @Test func everyDecoderTakesTheLimits() throws {
        let variant = try RetenoVariantId("r1107v1482")
        let decoders: [(String, (Data, JSONLimits) throws -> Void)] = [
            ("segmentify-home-page", { _ = try VendorPayloads.decode($0, limits: ReplyLimits(json: $1)) }),
            ("segmentify-home-page", { _ = try SegmentifyRecommendations.decode($0, limits: ReplyLimits(json: $1)) }),
            ("segmentify-search-after", { _ = try SegmentifySearch.decode($0, limits: ReplyLimits(json: $1)) }),
            ("segmentify-keys", { _ = try SegmentifyKeys.decode($0, limits: $1) }),
            ("reteno-recoms-full", { _ = try RetenoRecoms.decode($0, variantId: variant, limits: ReplyLimits(json: $1)) }),
            ("bloomreach-segments", { _ = try BloomreachSegments.decode($0, limits: $1) }),
            ("connectif-purchase", { _ = try ConnectifPurchaseEvent.decode($0, limits: $1) }),
            ("8digits-visit", { _ = try EightDigitsReply.decode($0, limits: $1) }),
        ]
        for (sample, decode) in decoders {
            let data = try SamplePayloads.data(named: sample)
            try decode(data, .default)
            let error = try #require(limitError { try decode(data, JSONLimits(maximumInputBytes: 16)) }, "\(sample)")
            #expect(error.message == "a document of \(data.count) bytes, more than 16 (JSONLimits.maximumInputBytes)", "\(sample)")
        }
    }

    @Test func aDepthLimitNamesWhereInTheReplyItWasReached() throws {
        let data = try SamplePayloads.data(named: "segmentify-home-page")
        let error = try #require(limitError { _ = try VendorPayloads.decode(data, limits: ReplyLimits(json: JSONLimits(maximumDepth: 4))) })
        #expect(error.message == "nesting deeper than 4 levels (JSONLimits.maximumDepth)")
        #expect(error.path.description.hasPrefix("$.responses[0][0]."))
        #expect(error.position != nil)
    }
}
