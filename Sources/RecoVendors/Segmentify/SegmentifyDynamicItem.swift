/// One algorithm of a Segmentify block, as listed in the block's `dynamicItems`:
/// `{"recommendationSource":"RECOMMENDATION_SMART_OFFERS","timeFrame":"TODAY","score":"NONE","itemCount":"8"}`.
struct SegmentifyDynamicItem: Hashable, Sendable {
    /// The algorithm, e.g. `RECOMMENDATION_SMART_OFFERS`, or a category / brand name.
    let source: String
    let timeFrame: String?
    let score: String?
    /// The products this source contributes: 0 when absent, negative or not a whole number, at most
    /// ``ReplyLimits/itemCount``.
    var itemCount: Int
    /// Why `itemCount` is not what the vendor wrote, when it is not (the block turns it into a notice).
    var itemCountNote: ItemCountNote?
    /// Where the item is in the payload.
    var path: JSONPath

    /// Sources whose products never count as shown, and so are never eliminated for having been
    /// shown by an earlier block (the visitor's own history).
    static let exemptSources: Set<String> = ["RECOMMENDATION_SOURCE_LAST_VISITED", "RECOMMENDATION_EVENT_DATA"]

    /// The key of this item's products in an object-form `recommendedProducts`: `source|timeFrame|score`,
    /// or just `source` when there is no time frame. Made once: a block reads it several times.
    let key: String

    /// Whether this source's products are exempt from elimination by earlier blocks.
    var isExempt: Bool { Self.exemptSources.contains(source) }

    /// Reads one entry of the parsed `dynamicItems` array (a tree, or a tape read in place).
    /// - Throws: ``PayloadError`` when the entry is not an object, or has no string `recommendationSource`.
    init<Node: JSONNode>(_ json: Node, at path: JSONPath, limits: ReplyLimits = .default) throws(PayloadError) {
        guard json.isObject else { throw .typeMismatch(expected: "a dynamic item object", found: json.kindPlaceholder, at: path) }
        guard let sourceNode = json["recommendationSource"] else { throw .missingKey("recommendationSource", at: path) }
        guard let source = sourceNode.stringValue else {
            throw .typeMismatch(expected: "a string", found: sourceNode.kindPlaceholder, at: path.appending(key: "recommendationSource"))
        }
        self.source = source
        timeFrame = try Self.optionalText(json["timeFrame"], key: "timeFrame", in: path)
        score = try Self.optionalText(json["score"], key: "score", in: path)
        // itemCount: "8" or 8. Anything else that is present counts as 0, as the vendor's library does.
        switch json["itemCount"].map(Self.scalar) {
        case nil, .null?:
            itemCount = 0
        case let value?:
            switch ItemCount(value) {
            case .count(let count) where count > limits.itemCount:
                itemCount = limits.itemCount
                itemCountNote = .clamped(value.scalarText ?? "")
            case .count(let count):
                itemCount = count
            case .tooLarge:
                itemCount = limits.itemCount
                itemCountNote = .clamped(value.scalarText ?? "")
            case .negative:
                itemCount = 0
                itemCountNote = .negative(value.scalarText ?? "")
            case .unreadable:
                itemCount = 0
                itemCountNote = .unreadable
            }
        }
        self.path = path
        if let timeFrame, !timeFrame.isEmpty {
            key = "\(source)|\(timeFrame)|\(score ?? "")"
        } else {
            key = source
        }
    }

    /// A scalar member as a tree (a string or a number is all the tree there is); an array or an object
    /// as an empty one of its kind, which is all a count or an error needs of it.
    private static func scalar<Node: JSONNode>(_ node: Node) -> JSONValue {
        switch node.kindPlaceholder {
        case .array, .object: node.kindPlaceholder
        default: node.tree
        }
    }

    /// The member `key` as text; its path is made only for an error.
    private static func optionalText<Node: JSONNode>(_ node: Node?, key: String, in path: JSONPath) throws(PayloadError) -> String? {
        guard let node else { return nil }
        switch scalar(node) {
        case .null: return nil
        case .string(let text): return text
        case .number(let number): return number.text
        case let other: throw .typeMismatch(expected: "a string", found: other, at: path.appending(key: key))
        }
    }
}
