import Foundation
import RecoKit

/// The fields every Segmentify event shares: who (`userId`, `sessionId`, both mandatory), where and how
/// (`lang`, `currency`, `pageUrl`, `testMode`, `region`, `os`, `device`), which software
/// (`sdkVersion`, `appVersion`) and free `params`.
///
/// Each event holds its own copy: changing one event's common fields never touches another's.
///
/// ```swift
/// let ids = try await visitors.ids(for: cookie)
/// let common = SegmentifyCommonFields(ids: ids, lang: "TR", currency: "TRY",
///                                     pageUrl: "https://www.shop.example/urun/240-lv09")
/// ```
public struct SegmentifyCommonFields: Sendable, Hashable {
    /// The visitor's id from Segmentify's `get/key` reply (mandatory).
    public var userId: String
    /// The visit's id from Segmentify's `get/key` reply (mandatory).
    public var sessionId: String
    /// The visitor's language (`TR`, `EN`, `FR`, `DE`, or one agreed with Segmentify).
    public var lang: String?
    /// The currency of prices, three capital letters (`EUR`).
    public var currency: String?
    /// The page the event happened on (http or https).
    public var pageUrl: String?
    /// Test events are seen only by test campaigns and left out of reports.
    public var testMode: Bool?
    /// The region of a multi-region store.
    public var region: String?
    /// The visitor's operating system.
    public var os: String?
    /// The visitor's device type.
    public var device: String?
    /// The version of the software sending the event.
    public var sdkVersion: String?
    /// The version of the app the visitor uses.
    public var appVersion: String?
    /// Free parameters, sent in the event's `params` object.
    public var params: [String: JSONValue]

    /// Common fields; only those you pass are sent.
    public init(userId: String, sessionId: String, lang: String? = nil, currency: String? = nil, pageUrl: String? = nil,
                testMode: Bool? = nil, region: String? = nil, os: String? = nil, device: String? = nil,
                sdkVersion: String? = nil, appVersion: String? = nil, params: [String: JSONValue] = [:]) {
        self.userId = userId
        self.sessionId = sessionId
        self.lang = lang
        self.currency = currency
        self.pageUrl = pageUrl
        self.testMode = testMode
        self.region = region
        self.os = os
        self.device = device
        self.sdkVersion = sdkVersion
        self.appVersion = appVersion
        self.params = params
    }

    /// Common fields for the visitor ids a ``SegmentifyVisitors`` gave.
    public init(ids: SegmentifyVisitorIds, lang: String? = nil, currency: String? = nil, pageUrl: String? = nil,
                testMode: Bool? = nil) {
        self.init(userId: ids.userId, sessionId: ids.sessionId, lang: lang, currency: currency, pageUrl: pageUrl, testMode: testMode)
    }

    /// The interaction context the tracker journals (everything but the two versions, which travel with the event).
    public var context: InteractionContext {
        InteractionContext(userId: userId, sessionId: sessionId, lang: lang, currency: currency, pageUrl: pageUrl,
                           region: region, testMode: testMode, os: os, device: device, params: params)
    }

    /// Checks the mandatory ids and the formats, naming fields under `event` (`pageView.userId`).
    func validate(in event: String) throws(SegmentifyEventError) {
        try SegmentifyFieldRules.text(userId, "\(event).userId")
        try SegmentifyFieldRules.text(sessionId, "\(event).sessionId")
        if let lang { try SegmentifyFieldRules.text(lang, "\(event).lang") }
        if let currency { try SegmentifyFieldRules.currency(currency, "\(event).currency") }
        if let pageUrl { try SegmentifyFieldRules.url(pageUrl, "\(event).pageUrl") }
        for (key, value) in [("region", region), ("os", os), ("device", device), ("sdkVersion", sdkVersion),
                             ("appVersion", appVersion)] {
            if let value { try SegmentifyFieldRules.text(value, "\(event).\(key)") }
        }
        if params.keys.contains("") { throw .invalid("\(event).params", must: "have non-empty keys", got: "an empty key") }
    }
}
