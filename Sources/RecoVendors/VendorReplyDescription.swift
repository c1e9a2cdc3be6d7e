import Foundation

/// What a vendor payload that carries no recommendations holds: a Segmentify key reply, a Bloomreach
/// segments answer, a Connectif purchase event or an 8digits reply, decoded and checked by its vendor's
/// rules, then told in lines for people and as JSON for programs.
public struct VendorReplyDescription: Hashable, Sendable {
    /// The kind of payload.
    public var kind: VendorPayloadKind
    /// What it holds, a fact a line (`userId -897541074991628287`).
    public var lines: [String]
    /// What it holds, as JSON (the decoded values, normalised).
    public var json: JSONValue
    /// Values left out or unusual, with where and why.
    public var notices: [DecodingNotice]
}

extension VendorPayloads {
    /// Decodes a payload that carries no recommendations by its vendor's rules and describes it.
    ///
    /// ```swift
    /// let description = try VendorPayloads.describe(json)   // a Bloomreach answer, say
    /// description.lines   // ["discovery: 2 segments: 6614…/6614…, …", "merchandising: none", …]
    /// ```
    /// - Parameter kind: the payload's kind; nil to recognise it.
    /// - Throws: ``PayloadError``: the vendor's own errors (an 8digits reply with a non-zero code is a
    ///   `vendorError` carrying the server's message), a malformed payload with its path, or
    ///   `unrecognized` when the payload is not of a kind described here.
    public static func describe(_ json: JSONValue, kind: VendorPayloadKind? = nil) throws(PayloadError) -> VendorReplyDescription {
        try describe(node: json, kind: kind)
    }

    /// Decodes the bytes of a payload that carries no recommendations and describes it (see the
    /// `JSONValue` overload). The bytes are read in place, as ``decode(_:vendor:language:variantId:title:limits:)-(Data,_,_,_,_,_)``
    /// reads them: no tree of the whole payload is made.
    /// - Parameter limits: bounds on the payload's size and shape; nil for its kind's
    ///   ``VendorPayloadKind/defaultLimits`` (a Segmentify key reply of more than 1 MiB is refused).
    /// - Throws: ``PayloadError`` as the `JSONValue` overload, and `invalidJSON` or `limitExceeded` for the bytes.
    public static func describe(_ data: Data, kind: VendorPayloadKind? = nil, limits: JSONLimits? = nil) throws(PayloadError) -> VendorReplyDescription {
        let document = try PayloadDocument(parsing: data, limits: limits ?? .default)
        return try document.describe(kind: kind, limits: limits)
    }

    /// ``describe(_:kind:)`` for a tree or a tape.
    static func describe<Node: JSONNode>(node json: Node, kind: VendorPayloadKind?) throws(PayloadError) -> VendorReplyDescription {
        guard let kind = kind ?? detect(node: json) else { throw .unrecognized("not a known vendor payload") }
        switch kind {
        case .segmentifyKeys:
            let keys = try SegmentifyKeys.decode(node: json)
            var lines = ["userId \(keys.userId ?? "")"]
            if let sessionId = keys.sessionId { lines.append("sessionId \(sessionId)") }
            lines += keys.keys.dropFirst(2).map { "key \($0)" }
            var members: [String: JSONValue] = ["keys": .array(keys.keys.map(JSONValue.string))]
            if let userId = keys.userId { members["userId"] = .string(userId) }
            if let sessionId = keys.sessionId { members["sessionId"] = .string(sessionId) }
            return VendorReplyDescription(kind: kind, lines: lines, json: .object(members), notices: [])
        case .bloomreachSegments:
            let decoded = try BloomreachSegments.decode(node: json)
            var lines: [String] = []
            var members: [String: JSONValue] = [:]
            for category in decoded.segments.categoryNames {
                let segments = decoded.segments.segments(in: category) ?? []
                lines.append("\(category): " + (segments.isEmpty ? "none" : "\(segments.count) segment\(segments.count == 1 ? "" : "s"): " + segments.map(\.description).joined(separator: ", ")))
                members[category.rawValue] = .array(segments.map { ["id": .string($0.id), "segmentation_id": .string($0.segmentationId)] })
            }
            return VendorReplyDescription(kind: kind, lines: lines, json: .object(members), notices: decoded.notices)
        case .connectifPurchase:
            let event = try ConnectifPurchaseEvent.decode(node: json)
            let purchase = event.purchase
            var lines = [
                "purchase \(purchase.purchaseId), cart \(purchase.cartId)",
                "\(purchase.totalQuantity) item\(purchase.totalQuantity == 1 ? "" : "s"), total \(purchase.totalPrice)",
            ]
            if let sourceType = purchase.sourceType { lines.append("source \(sourceType)" + (purchase.sourceName.map { " (\($0))" } ?? "")) }
            lines += purchase.products.enumerated().map { index, item in
                "\(index + 1). \(item.productId) \(item.name): \(item.quantity) × \(item.unitPrice) = \(item.price)"
            }
            return VendorReplyDescription(kind: kind, lines: lines, json: event.json, notices: [])
        case .eightDigitsReply:
            let data = try EightDigitsReply.decode(node: json)?.tree
            let lines = data.map { ["result code 0 (success)", "data \(JSONWriter.string($0))"] } ?? ["result code 0 (success), no data"]
            return VendorReplyDescription(kind: kind, lines: lines, json: ["code": 0, "data": data ?? .null], notices: [])
        case .segmentifyRecommendations, .segmentifySearch, .retenoRecommendations:
            throw .unrecognized("this is \(kind.title): decode its recommendations with VendorPayloads.decode")
        }
    }
}
