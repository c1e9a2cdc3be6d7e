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

    /// Payloads that carry no recommendations are made into values whole, so each kind is read with a
    /// cap that fits what it holds (``VendorPayloadKind/defaultLimits``): at the cap it is described,
    /// one byte over it is refused with the kind and the cap named, and the caller's own limits read more.
    @Test(arguments: [
        ("segmentify-keys", VendorPayloadKind.segmentifyKeys, 1 << 20), ("bloomreach-segments", .bloomreachSegments, 1 << 20),
        ("8digits-badges", .eightDigitsReply, 1 << 20), ("connectif-purchase", .connectifPurchase, 4 << 20),
    ])
    func aPayloadWithoutRecommendationsIsHeldToItsKindsCap(sample: String, kind: VendorPayloadKind, cap: Int) throws {
        #expect(kind.defaultLimits.maximumInputBytes == cap)
        let data = try SamplePayloads.data(named: sample)
        // Trailing white space keeps the document the same payload at any size.
        let atCap = data + Data(repeating: UInt8(ascii: " "), count: cap - data.count)
        let overCap = atCap + Data(" ".utf8)
        #expect(try VendorPayloads.describe(atCap).kind == kind)
        let error = try #require(limitError { _ = try VendorPayloads.describe(overCap) })
        #expect(error.message == "\(kind.title) of \(cap + 1) bytes, more than \(cap) (JSONLimits.maximumInputBytes; VendorPayloadKind.defaultLimits for this kind)")
        #expect(try VendorPayloads.describe(overCap, limits: JSONLimits(maximumInputBytes: cap + 1)).kind == kind)
        // The kind's own decoder, from bytes, holds to the same cap.
        let decode: (Data) throws -> Void = switch kind {
        case .segmentifyKeys: { _ = try SegmentifyKeys.decode($0) }
        case .bloomreachSegments: { _ = try BloomreachSegments.decode($0) }
        case .eightDigitsReply: { _ = try EightDigitsReply.decode($0) }
        default: { _ = try ConnectifPurchaseEvent.decode($0) }
        }
        try decode(atCap)
        #expect(limitError { try decode(overCap) } != nil)
    }

    /// Replies that carry recommendations keep the general cap: their products are read in place.
    @Test func repliesOfRecommendationsKeepTheDefaultLimits() {
        for kind in VendorPayloadKind.allCases where kind.carriesRecommendations {
            #expect(kind.defaultLimits == .default)
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
