/// The `statusCode` of a Segmentify reply: `SUCCESS`, or an error code that says why the request
/// was refused.
///
/// Segmentify answers an error with a body whose `statusCode` is not `SUCCESS`
/// (`{"statusCode":"NO_DOMAIN_APIKEY_MATCH"}`). The decoders turn such a body into
/// ``PayloadError`` of kind ``PayloadError/Kind/vendorError`` whose ``PayloadError/vendorCode`` is
/// the code and whose message says what it means. A code not listed here is still an error, named
/// as sent.
///
/// ```swift
/// SegmentifyStatus(code: "NO_ACCOUNT").meaning   // "the api key belongs to no Segmentify account …"
/// ```
public struct SegmentifyStatus: Hashable, Sendable, CustomStringConvertible {
    /// The code as Segmentify sends it (`SUCCESS`, `NO_ACCOUNT`, …).
    public let code: String
    /// What the code means, in words; for an unknown code, a sentence saying it is not documented.
    public let meaning: String

    private init(_ code: String, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }

    /// The status for a code; an undocumented code gets a meaning that says so.
    public init(code: String) {
        self = Self.known.first { $0.code == code }
            ?? SegmentifyStatus(code, "a status code that Segmentify does not document; the request did not succeed")
    }

    /// Whether this is `SUCCESS`.
    public var isSuccess: Bool { code == Self.success.code }

    /// The request succeeded.
    public static let success = SegmentifyStatus("SUCCESS", "the request succeeded")
    /// The request carried no `apiKey` parameter.
    public static let noAPIKey = SegmentifyStatus("NO_API_KEY", "the request has no apiKey parameter; send the account's api key with every request")
    /// The api key belongs to no account.
    public static let noAccount = SegmentifyStatus("NO_ACCOUNT", "the api key belongs to no Segmentify account; check the key")
    /// The account exists but is not verified yet.
    public static let unverifiedAccount = SegmentifyStatus("UNVERIFIED_ACCOUNT", "the account of this api key is not verified yet; verify it from the e-mail Segmentify sent")
    /// The account is not active.
    public static let failedAccount = SegmentifyStatus("FAILED_ACCOUNT", "the account of this api key is not active; ask Segmentify support to re-activate it")
    /// The `Origin` header does not match the account's domain.
    public static let noDomainAPIKeyMatch = SegmentifyStatus("NO_DOMAIN_APIKEY_MATCH", "the request's domain does not match the account's domain; send the account's domain in the Origin header")
    /// The body held no event.
    public static let noEvent = SegmentifyStatus("NO_EVENT", "the request body holds no event; send at least one event per request")
    /// An event lacks `userId`.
    public static let noUserId = SegmentifyStatus("NO_USERID", "an event in the request has no userId")
    /// An event lacks `sessionId`.
    public static let noSessionId = SegmentifyStatus("NO_SESSIONID", "an event in the request has no sessionId")
    /// The body is not a well-formed JSON array of events.
    public static let badInput = SegmentifyStatus("BAD_INPUT", "the request body is not a well-formed JSON array of Segmentify events")

    /// Every documented status, `SUCCESS` first.
    public static let known: [SegmentifyStatus] = [
        .success, .noAPIKey, .noAccount, .unverifiedAccount, .failedAccount, .noDomainAPIKeyMatch,
        .noEvent, .noUserId, .noSessionId, .badInput,
    ]

    public var description: String { "\(code): \(meaning)" }

    /// Checks a reply's envelope: it must be an object, and its `statusCode`, when present, must be
    /// `SUCCESS`. (Successful replies carry `"statusCode":"SUCCESS"`; a reply without the key is taken
    /// as successful, so that recorded payloads stripped of it still decode.)
    /// - Throws: ``PayloadError`` `vendorError` naming the code and its meaning at `$.statusCode`;
    ///   `typeMismatch` when the reply is not an object or the code is not a string.
    static func check(_ reply: JSONValue) throws(PayloadError) { try check(node: reply) }

    /// Checks a reply read as a tree or a tape (see ``check(_:)``).
    static func check<Node: JSONNode>(node reply: Node) throws(PayloadError) {
        guard reply.isObject else {
            throw .typeMismatch(expected: "a Segmentify reply object", found: reply.kindPlaceholder, at: .root)
        }
        guard let value = reply["statusCode"]?.tree else { return }
        let path = JSONPath.root.appending(key: "statusCode")
        guard case .string(let code) = value else { throw .typeMismatch(expected: "a status code string", found: value, at: path) }
        let status = SegmentifyStatus(code: code)
        if !status.isSuccess { throw .vendorError(code: code, meaning: status.meaning, at: path) }
    }
}
