import Foundation
import FuzzSupport
import RecoKit
import RecoVendors

private let variant = try! RetenoVariantId("r1107v1482")

/// Every vendor decoder that takes a reply's bytes, over the same bytes: each must answer or throw its
/// error, never crash. The seeds are the replies in `Samples/Payloads`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendorReplies(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = FuzzInput(pointer, size).data
    if let reply = try? VendorPayloads.decode(data) {
        _ = reply.report.description
        if let json = try? JSONValue(parsing: data), let kind = VendorPayloads.detect(json) { _ = try? VendorPayloads.describe(json, kind: kind) }
    }
    _ = try? VendorPayloads.decode(data, vendor: .reteno)
    _ = try? SegmentifyRecommendations.decode(data, language: "TR")
    _ = try? SegmentifySearch.decode(data, language: "EN")
    _ = try? SegmentifyKeys.decode(data)
    _ = try? RetenoRecoms.decode(data, variantId: variant, title: "Fuzz")
    _ = try? BloomreachSegments.decode(data)
    _ = try? ConnectifPurchaseEvent.decode(data)
    _ = try? EightDigitsReply.decode(data)
    _ = try? EightDigitsReply.acknowledgement(data)
    _ = try? EightDigitsReply.authToken(data)
    _ = try? EightDigitsReply.visit(data)
    _ = try? EightDigitsReply.hitCode(data)
    _ = try? EightDigitsReply.badges(data)
    _ = try? EightDigitsReply.score(data)
    return 0
}
