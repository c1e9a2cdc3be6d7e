import Foundation
import FuzzSupport
import RecoKit
import RecoVendors

private let variant = try! RetenoVariantId("r1107v1482")

/// Every vendor decoder over the same reply: each must answer or throw its error, never crash. The
/// bytes go through `VendorPayloads.decode` and the Connectif and 8digits entry points that take bytes;
/// the other decoders take the value parsed once (their bytes entry points only parse first), so each
/// run costs one parse per entry point kind rather than one per decoder. Seeds: `Samples/Payloads`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendorReplies(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = FuzzInput(pointer, size).data
    if let reply = try? VendorPayloads.decode(data) { _ = reply.report.description }
    _ = try? ConnectifPurchaseEvent.decode(data)
    _ = try? EightDigitsReply.badges(data)
    guard let json = try? JSONValue(parsing: data) else { return 0 }
    if let kind = VendorPayloads.detect(json) { _ = try? VendorPayloads.describe(json, kind: kind) }
    _ = try? VendorPayloads.decode(json, vendor: .reteno)
    _ = try? SegmentifyRecommendations.decode(json, language: "TR")
    _ = try? SegmentifySearch.decode(json, language: "EN")
    _ = try? SegmentifyKeys.decode(json)
    _ = try? RetenoRecoms.decode(json, variantId: variant, title: "Fuzz")
    _ = try? BloomreachSegments.decode(json)
    _ = try? EightDigitsReply.decode(json)
    return 0
}
