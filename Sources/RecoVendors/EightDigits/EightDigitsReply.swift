import Foundation

/// Decodes 8digits replies: `{"result":{"code":0},"data":{…}}`. A non-zero `result.code` is an
/// error carrying the server's `result.message`.
///
/// ```swift
/// let token = try EightDigitsReply.authToken(data)        // "f3a9…"
/// let badges = try EightDigitsReply.badges(data)          // EightDigitsBadges(ids: ["4f0a…"], count: 1)
/// ```
/// Each entry point throws ``PayloadError``: `vendorError` (its `vendorCode` is the result code) for a
/// non-zero code, or what is missing or mistyped and where.
public enum EightDigitsReply {
    /// Checks `result.code` and returns `data` (nil when the reply has none, as after end-visit).
    /// - Parameter limits: bounds on the reply's size and shape (documents of 1 MiB unless given:
    ///   ``VendorPayloadKind/defaultLimits``).
    public static func decode(_ data: Data, limits: JSONLimits = VendorPayloadKind.eightDigitsReply.defaultLimits) throws(PayloadError) -> JSONValue? {
        try decode(JSONValue(parsing: data, limits: limits))
    }

    /// Checks `result.code` of an already parsed reply and returns `data`.
    public static func decode(_ reply: JSONValue) throws(PayloadError) -> JSONValue? {
        try decode(node: reply)?.tree
    }

    /// Checks `result.code` of a reply read as a tree or a tape and returns `data` as read.
    static func decode<Node: JSONNode>(node reply: Node) throws(PayloadError) -> Node? {
        guard reply.isObject else { throw .typeMismatch(expected: "an object", found: reply.kindPlaceholder, at: .root) }
        guard let result = reply["result"] else { throw .missingKey("result", at: .root) }
        let resultPath = JSONPath.root.appending(key: "result")
        guard result.isObject else { throw .typeMismatch(expected: "an object", found: result.kindPlaceholder, at: resultPath) }
        guard let codeValue = result["code"] else { throw .missingKey("code", at: resultPath) }
        // The code is a scalar: its tree is the scalar alone.
        guard let code = codeValue.tree.intValue else {
            throw .typeMismatch(expected: "a whole number", found: codeValue.kindPlaceholder, at: resultPath.appending(key: "code"))
        }
        guard code == 0 else {
            let message = result["message"]?.scalarText ?? "(no message)"
            throw .vendorError(code: String(code), meaning: message, at: resultPath.appending(key: "code"))
        }
        guard let payload = reply["data"], !payload.isNull else { return nil }
        return payload
    }

    /// The non-zero `result.code` and its message, when the reply is a readable error reply.
    static func serverFailure(_ data: Data) -> (code: Int, message: String)? {
        guard let reply = try? JSONValue(parsing: data, limits: VendorPayloadKind.eightDigitsReply.defaultLimits), let code = reply["result"]?["code"]?.intValue, code != 0 else { return nil }
        return (code, reply["result"]?["message"]?.scalarText ?? "(no message)")
    }

    /// A reply with nothing to return (end visit, end screen, event, location): only its code is checked.
    public static func acknowledgement(_ data: Data) throws(PayloadError) {
        _ = try decode(data)
    }

    /// The auth token of an authentication reply (`data.authToken`).
    public static func authToken(_ data: Data) throws(PayloadError) -> String {
        try text(in: requiredData(data), "authToken")
    }

    /// The session code and the launch screen's hit code of a new-visit reply.
    public static func visit(_ data: Data) throws(PayloadError) -> EightDigitsVisitStarted {
        let payload = try requiredData(data)
        let hitCode = payload["hitCode"].flatMap { $0.isNull ? nil : $0 } == nil ? nil : try text(in: payload, "hitCode")
        return EightDigitsVisitStarted(sessionCode: try text(in: payload, "sessionCode"), hitCode: hitCode)
    }

    /// The hit code of a new-screen reply (`data.hitCode`, a string or a number).
    public static func hitCode(_ data: Data) throws(PayloadError) -> String {
        try text(in: requiredData(data), "hitCode")
    }

    /// The badges of a badges reply: `{"badges":[ids],"count":N}`.
    public static func badges(_ data: Data) throws(PayloadError) -> EightDigitsBadges {
        let payload = try requiredData(data)
        let path = JSONPath.root.appending(key: "data")
        guard let list = payload["badges"] else { throw .missingKey("badges", at: path) }
        guard let elements = list.arrayValue else { throw .typeMismatch(expected: "an array of badge ids", found: list, at: path.appending(key: "badges")) }
        var ids: [String] = []
        for (index, element) in elements.enumerated() {
            guard let id = element.stringValue else {
                throw .typeMismatch(expected: "a badge id string", found: element, at: path.appending(key: "badges").appending(index: index))
            }
            ids.append(id)
        }
        let count = try number(in: payload, "count")
        return EightDigitsBadges(ids: ids, count: count)
    }

    /// The visitor's score of a score reply: `{"score":N}`.
    public static func score(_ data: Data) throws(PayloadError) -> Int {
        try number(in: requiredData(data), "score")
    }

    private static func requiredData(_ data: Data) throws(PayloadError) -> JSONValue {
        guard let payload = try decode(data) else { throw .missingKey("data", at: .root) }
        guard payload.objectValue != nil else {
            throw .typeMismatch(expected: "an object", found: payload, at: JSONPath.root.appending(key: "data"))
        }
        return payload
    }

    private static func text(in payload: JSONValue, _ key: String) throws(PayloadError) -> String {
        let path = JSONPath.root.appending(key: "data")
        guard let value = payload[key], !value.isNull else { throw .missingKey(key, at: path) }
        guard let text = value.stringValue ?? value.numberValue?.text, !text.isEmpty else {
            throw .typeMismatch(expected: "a non-empty string", found: value, at: path.appending(key: key))
        }
        return text
    }

    private static func number(in payload: JSONValue, _ key: String) throws(PayloadError) -> Int {
        let path = JSONPath.root.appending(key: "data")
        guard let value = payload[key] else { throw .missingKey(key, at: path) }
        guard let number = value.intValue else { throw .typeMismatch(expected: "a whole number", found: value, at: path.appending(key: key)) }
        return number
    }
}

/// What a new visit returns: its session code, and the hit code of the launch screen when one was given.
public struct EightDigitsVisitStarted: Hashable, Sendable {
    /// The session code.
    public var sessionCode: String
    /// The launch screen's hit code.
    public var hitCode: String?

    /// A started visit.
    public init(sessionCode: String, hitCode: String?) {
        self.sessionCode = sessionCode
        self.hitCode = hitCode
    }
}

/// The badges a visitor carries.
public struct EightDigitsBadges: Hashable, Sendable {
    /// The badge ids (use ``EightDigitsAPI/badgeImageURL(badgeId:)`` for their images).
    public var ids: [String]
    /// The count the server reported.
    public var count: Int

    /// Badges and their count.
    public init(ids: [String], count: Int) {
        self.ids = ids
        self.count = count
    }
}
