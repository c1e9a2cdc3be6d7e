import Foundation
import FuzzSupport
import RecoKit
import RecoVendors

private let variant = try! RetenoVariantId("r1107v1482")

/// Every vendor decoder over the same reply: each must answer or throw its error, never crash. The
/// bytes go through `VendorPayloads.decode` and the Connectif and 8digits entry points that take bytes;
/// the other decoders take the value parsed once (their bytes entry points only parse first), so each
/// run costs one parse per entry point kind rather than one per decoder. Seeds: `Samples/Payloads`.
/// Decoding from bytes reads the reply in place (a tape); decoding the parsed value reads the tree: both
/// must give the same widgets, products and report; and a payload without recommendations the same
/// description (``VendorPayloads/describe(_:kind:limits:)`` from bytes, and from the tree).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendorReplies(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = FuzzInput(pointer, size).data
    let fromBytes = Result { () throws(PayloadError) in try VendorPayloads.decode(data) }
    if case .success(let reply) = fromBytes { _ = reply.report.description }
    _ = try? ConnectifPurchaseEvent.decode(data)
    _ = try? EightDigitsReply.badges(data)
    guard let json = try? JSONValue(parsing: data) else { return 0 }
    let fromTree = Result { () throws(PayloadError) in try VendorPayloads.decode(json) }
    fuzzCheck(summary(fromBytes) == summary(fromTree), "bytes and tree disagree: \(summary(fromBytes).prefix(300)) / \(summary(fromTree).prefix(300))")
    for vendor in [Vendor.reteno, .segmentify] {
        let bytes = Result { () throws(PayloadError) in try VendorPayloads.decode(data, vendor: vendor) }
        let tree = Result { () throws(PayloadError) in try VendorPayloads.decode(json, vendor: vendor) }
        fuzzCheck(summary(bytes) == summary(tree), "bytes and tree disagree as \(vendor)")
    }
    let describedFromBytes = Result { () throws(PayloadError) in try VendorPayloads.describe(data) }
    let describedFromTree = Result { () throws(PayloadError) in try VendorPayloads.describe(json) }
    fuzzCheck(summary(describedFromBytes) == summary(describedFromTree), "bytes and tree describe it apart: \(summary(describedFromBytes).prefix(300)) / \(summary(describedFromTree).prefix(300))")
    _ = try? VendorPayloads.decode(json, vendor: .reteno)
    _ = try? SegmentifyRecommendations.decode(json, language: "TR")
    _ = try? SegmentifySearch.decode(json, language: "EN")
    _ = try? SegmentifyKeys.decode(json)
    _ = try? RetenoRecoms.decode(json, variantId: variant, title: "Fuzz")
    _ = try? BloomreachSegments.decode(json)
    _ = try? EightDigitsReply.decode(json)
    return 0
}

/// What a description gave, as text: all of it, or the error.
private func summary(_ result: Result<VendorReplyDescription, PayloadError>) -> String {
    switch result {
    case .success(let description): "\(description)"
    case .failure(let error): "error \(error) \(error.path) \(String(describing: error.position))"
    }
}

/// What a decoding gave, as text: every widget's ids, products and paths, and the report; or the error.
private func summary(_ result: Result<Recommendations<RawProduct>, PayloadError>) -> String {
    switch result {
    case .success(let reply):
        let widgets = reply.widgets.map { widget in
            "\(widget.instanceId) \(widget.interactionId) \(widget.title) \(widget.path): " + widget.items.map { "\($0.position) \($0.raw.description) \($0.path)" }.joined(separator: ", ")
        }
        return widgets.joined(separator: "\n") + "\n" + reply.report.description
    case .failure(let error):
        return "error \(error) \(error.path) \(String(describing: error.position))"
    }
}
