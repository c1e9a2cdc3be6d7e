import Foundation
@_spi(JSONTape) import RecoKit

/// Decodes any supported vendor's recommendation payload, recognising the vendor from its shape when
/// you do not name it.
///
/// Recognition looks only at the top level:
///
/// | shape | kind |
/// |---|---|
/// | `recoms` | ``VendorPayloadKind/retenoRecommendations`` |
/// | `search` holding a non-empty `search[0]` | ``VendorPayloadKind/segmentifySearch`` |
/// | `responses` or `statusCode` | ``VendorPayloadKind/segmentifyRecommendations`` (an error envelope too) |
/// | an array of strings | ``VendorPayloadKind/segmentifyKeys`` |
/// | `result` (an object) | ``VendorPayloadKind/eightDigitsReply`` |
/// | `purchase` with `type` `"purchase"` | ``VendorPayloadKind/connectifPurchase`` |
/// | `content`, `discovery` or `merchandising` | ``VendorPayloadKind/bloomreachSegments`` |
///
/// The last four carry no recommendations: ``describe(_:kind:)`` tells what they hold.
///
/// A Segmentify search reply becomes one widget: its products, with the search click's instanceId
/// (`bs_product` before search, `product` after); use ``SegmentifySearch`` for the campaign and the
/// other groups.
///
/// ```swift
/// let reply = try VendorPayloads.decode(data)            // whichever vendor sent it
/// let shoes = reply.decoded(as: Shoe.self)
/// ```
public enum VendorPayloads {
    /// The kind of payload this is, judged by its top-level keys; nil when it matches none.
    public static func detect(_ json: JSONValue) -> VendorPayloadKind? { detect(node: json) }

    /// ``detect(_:)`` for a tree or a tape.
    static func detect<Node: JSONNode>(node json: Node) -> VendorPayloadKind? {
        if let elements = json.nodeElements, !elements.isEmpty, elements.allSatisfy({ $0.stringValue != nil }) { return .segmentifyKeys }
        guard json.isObject else { return nil }
        if json["recoms"] != nil { return .retenoRecommendations }
        if let search = json["search"]?.nodeElements?.first?.nodeElements, !search.isEmpty { return .segmentifySearch }
        if json["responses"] != nil || json["statusCode"] != nil { return .segmentifyRecommendations }
        if json["search"] != nil { return .segmentifySearch }
        if json["result"]?.isObject == true { return .eightDigitsReply }
        if json["purchase"] != nil, json["type"]?.stringValue == "purchase" { return .connectifPurchase }
        if SegmentCategory.documented.contains(where: { json[$0.rawValue] != nil }) { return .bloomreachSegments }
        return nil
    }

    /// The vendor that sent this payload, judged by its shape; nil when it matches no known vendor.
    public static func detectVendor(_ json: JSONValue) -> Vendor? { detect(json)?.vendor }

    /// Decodes a payload's bytes into widgets of raw products.
    ///
    /// - Parameters:
    ///   - vendor: who sent it; nil to recognise it from its shape.
    ///   - language: the language for titles and texts when the vendor sends several (Segmentify).
    ///   - variantId: the Reteno variant the reply answers. A Reteno reply does not name it; without it
    ///     the widget's ids are ``unnamedRetenoVariant`` and a notice says so.
    ///   - title: the title of a Reteno widget (Reteno sends none).
    ///   - limits: how large an `itemCount` and how many products the reply may bring (``ReplyLimits``, whose `json` bounds the parse: depth, sizes, reply size);
    ///     what is past a limit is left out with a ``DecodingNotice/Kind/limitReached`` notice.
    /// - Throws: ``PayloadError``: invalid JSON, a shape no known vendor sends (`unrecognized`), or
    ///   the chosen vendor's own errors.
    public static func decode(
        _ data: Data, vendor: Vendor? = nil, language: String? = nil, variantId: RetenoVariantId? = nil, title: String = "",
        limits: ReplyLimits = .default
    ) throws(PayloadError) -> Recommendations<RawProduct> {
        try PayloadDocument(parsing: data, limits: limits.json).decode(vendor: vendor, language: language, variantId: variantId, title: title, limits: limits)
    }

    /// Decodes an already parsed payload (see ``decode(_:vendor:language:variantId:title:limits:)-(Data,_,_,_,_,_)``).
    public static func decode(
        _ json: JSONValue, vendor: Vendor? = nil, language: String? = nil, variantId: RetenoVariantId? = nil, title: String = "",
        limits: ReplyLimits = .default
    ) throws(PayloadError) -> Recommendations<RawProduct> {
        try decode(node: json, vendor: vendor, language: language, variantId: variantId, title: title, limits: limits)
    }

    /// Decodes a payload read as a tree or a tape (see the `JSONValue` overload).
    static func decode<Node: JSONNode>(
        node json: Node, vendor: Vendor?, language: String?, variantId: RetenoVariantId?, title: String, limits: ReplyLimits
    ) throws(PayloadError) -> Recommendations<RawProduct> {
        let kind = try kind(ofNode: json, vendor: vendor)
        switch kind {
        case .retenoRecommendations:
            if let variantId { return try RetenoRecoms.decode(node: json, instanceId: variantId.description, title: title, limits: limits) }
            var reply = try RetenoRecoms.decode(node: json, instanceId: unnamedRetenoVariant, title: title, limits: limits)
            reply.report.add(DecodingNotice(
                .unnamedVariant, at: .root,
                "a Reteno reply does not name its variant: the widget's instanceId is \"\(unnamedRetenoVariant)\"; give the variant id (r{recomId}v{variantId}) to track it"))
            return reply
        case .segmentifyRecommendations:
            return try SegmentifyRecommendations.decode(node: json, language: language, limits: limits)
        case .segmentifyKeys, .bloomreachSegments, .connectifPurchase, .eightDigitsReply:
            throw .unrecognized("this is \(kind.title), which carries no recommendations (VendorPayloads.describe tells what it holds)")
        case .segmentifySearch:
            let search = try SegmentifySearch.decode(node: json, language: language, limits: limits)
            var reply = search.recommendations
            if search.products.items.isEmpty {
                let phase = search.campaign.phase == .beforeSearch ? "before search" : "after search"
                reply.report.add(DecodingNotice(
                    .emptyWidget, at: search.products.path, "the \(phase) reply (\(search.products.instanceId)) has no products to show"))
            }
            return reply
        }
    }

    /// The instanceId given to a Reteno widget when the variant id is not known.
    public static let unnamedRetenoVariant = "reteno"

    /// The kind of a payload: the one named by `vendor` (its detected kind when the vendor sends several), or the detected one.
    public static func kind(of json: JSONValue, vendor: Vendor?) throws(PayloadError) -> VendorPayloadKind {
        try kind(ofNode: json, vendor: vendor)
    }

    /// ``kind(of:vendor:)`` for a tree or a tape.
    static func kind<Node: JSONNode>(ofNode json: Node, vendor: Vendor?) throws(PayloadError) -> VendorPayloadKind {
        let detected = detect(node: json)
        guard let vendor else {
            guard let detected else {
                // Ten keys at most, each cut at 40 characters: the object may hold any number, of any length.
                let keys = json.nodeKeys.map { keys in
                    let named = keys.sorted().prefix(10).map { "\"\($0.shortened(to: 40))\"" }.joined(separator: ", ")
                    return keys.count > 10 ? named + " and \(keys.count - 10) more" : named
                }
                let found = keys.map { $0.isEmpty ? "an empty object" : "an object with the keys \($0)" } ?? json.kindPlaceholder.kindDescription
                throw .unrecognized("not a known vendor payload (expected \"recoms\" for Reteno, \"responses\", \"statusCode\" or \"search\" for Segmentify, \"result\" for 8digits, \"purchase\" for Connectif, segment categories for Bloomreach), found \(found)")
            }
            return detected
        }
        if let detected, detected.vendor == vendor { return detected }
        switch vendor {
        case .reteno: return .retenoRecommendations
        case .segmentify: return .segmentifyRecommendations
        case .bloomreach: return .bloomreachSegments
        case .connectif: return .connectifPurchase
        case .eightDigits: return .eightDigitsReply
        default: throw .unrecognized("RecoKit knows payloads from segmentify, reteno, bloomreach, connectif and 8digits, not from \(vendor)")
        }
    }
}

extension DecodingNotice.Kind {
    /// A Reteno reply decoded without its variant id: the widget's ids are a placeholder.
    public static let unnamedVariant = DecodingNotice.Kind("unnamedVariant")
}
