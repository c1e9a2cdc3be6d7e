/// Who interacted and on which page: the fields every event of a visit shares.
///
/// Segmentify requires ``userId`` and ``sessionId`` on every event; the other fields are optional
/// and sent only when set. Reteno's recommendation events carry none of them.
///
/// ```swift
/// let context = InteractionContext(userId: "-897541074991628287", sessionId: "-2739101928374651",
///                                  lang: "EN", currency: "TRY", pageUrl: "https://shop.example/p/1")
/// ```
public struct InteractionContext: Sendable, Hashable {
    /// The visitor's id (Segmentify: mandatory).
    public var userId: String?
    /// The visit's id (Segmentify: mandatory).
    public var sessionId: String?
    /// The page language, for example `EN` or `TR`.
    public var lang: String?
    /// The currency prices are shown in, for example `TRY`.
    public var currency: String?
    /// The page the interaction happened on.
    public var pageUrl: String?
    /// The region of a multi-region store.
    public var region: String?
    /// Marks the event as a test (Segmentify `testMode`).
    public var testMode: Bool?
    /// The visitor's operating system.
    public var os: String?
    /// The visitor's device type.
    public var device: String?
    /// Extra parameters sent in the event's `params` object.
    public var params: [String: JSONValue]

    /// A context; only the fields you pass are sent.
    public init(userId: String? = nil, sessionId: String? = nil, lang: String? = nil, currency: String? = nil,
                pageUrl: String? = nil, region: String? = nil, testMode: Bool? = nil, os: String? = nil,
                device: String? = nil, params: [String: JSONValue] = [:]) {
        self.userId = userId
        self.sessionId = sessionId
        self.lang = lang
        self.currency = currency
        self.pageUrl = pageUrl
        self.region = region
        self.testMode = testMode
        self.os = os
        self.device = device
        self.params = params
    }
}
