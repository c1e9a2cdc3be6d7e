import Foundation

/// The visitor ids Segmentify hands out: the reply to `GET {dataCenterUrl}/get/key?count=2` (newer SDKs
/// `/get/key/v1.json?count=N`) is a JSON array of strings, `["<userId>","<sessionId>"]`.
///
/// Ids may look like negative integers (`"-897541074991628287"`); they are kept as text, and a number
/// in their place is read as its literal text, never rounded.
///
/// ```swift
/// let keys = try SegmentifyKeys.decode(data)
/// keys.userId      // "-897541074991628287"
/// keys.sessionId   // "-2066154474596835328"
/// ```
public struct SegmentifyKeys: Hashable, Sendable {
    /// Every key of the reply, in order.
    public var keys: [String]

    /// The first key: the visitor's user id when two were asked for.
    public var userId: String? { keys.first }
    /// The second key: the visitor's session id when two were asked for.
    public var sessionId: String? { keys.count > 1 ? keys[1] : nil }

    /// Decodes a key reply from its bytes.
    /// - Parameter limits: bounds on the reply's size and shape (documents of 1 MiB unless given:
    ///   ``VendorPayloadKind/defaultLimits``); a reply beyond them is a `limitExceeded` error.
    /// - Throws: ``PayloadError`` when the reply is not an array of non-empty strings.
    public static func decode(_ data: Data, limits: JSONLimits = VendorPayloadKind.segmentifyKeys.defaultLimits) throws(PayloadError) -> SegmentifyKeys {
        try decode(JSONValue(parsing: data, limits: limits))
    }

    /// Decodes a key reply already parsed.
    /// - Throws: ``PayloadError`` with the path of the first value that is not a non-empty id.
    public static func decode(_ json: JSONValue) throws(PayloadError) -> SegmentifyKeys {
        try decode(node: json)
    }

    /// Decodes a key reply read as a tree or a tape (see the `JSONValue` overload).
    static func decode<Node: JSONNode>(node json: Node) throws(PayloadError) -> SegmentifyKeys {
        guard let elements = json.nodeElements else { throw .typeMismatch(expected: "an array of keys", found: json.kindPlaceholder, at: .root) }
        guard !elements.isEmpty else { throw .invalidValue("the reply holds no key", at: .root) }
        var keys: [String] = []
        keys.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            // Each key is a scalar: its tree is the scalar alone.
            switch element.tree {
            case .string(let text) where !text.isEmpty: keys.append(text)
            case .number(let number): keys.append(number.text)
            case .string: throw .invalidValue("an empty key", at: JSONPath.root.appending(index: index))
            default: throw .typeMismatch(expected: "a key string", found: element.kindPlaceholder, at: JSONPath.root.appending(index: index))
            }
        }
        return SegmentifyKeys(keys: keys)
    }
}
