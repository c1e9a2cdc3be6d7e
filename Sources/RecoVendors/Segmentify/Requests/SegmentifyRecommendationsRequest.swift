import Foundation
import RecoKit
import RecoHTTP

/// The request a page sends Segmentify to get its recommendation blocks: the page's events (a page
/// view, a product view, a basket operation or checkout step, a search) posted at once, whose reply
/// carries one array of blocks per event (`responses`), which ``SegmentifyRecommendations`` decodes.
///
/// `POST {dataCenter}/add/events/v1.json?apiKey={apiKey}` with the headers `Content-Type:
/// application/json`, `Accept: application/json` and `Origin: {origin}`; the body is the JSON array of
/// the events, in the order given, each with the common fields (compact, keys sorted).
///
/// ```swift
/// let common = SegmentifyCommonFields(userId: userId, sessionId: sessionId, lang: "TR",
///                                     pageUrl: "https://shop.example/p/240-lv09")
/// let request = try SegmentifyRecommendationsRequest(
///     dataCenter: URL(string: "https://gandalf.segmentify.com")!, apiKey: key, origin: "shop.example",
///     events: [SegmentifyPageView(category: .productPage, common: common), productView])
/// let reply = try await transport.send(request.request, timeout: .seconds(1))
/// ```
///
/// The events are checked as the tracker checks them (``SegmentifyEvent/vendorEvent()``): a field the
/// guide refuses is a ``SegmentifyEventError`` naming it, before anything is sent.
public struct SegmentifyRecommendationsRequest: Sendable, Hashable {
    /// The data center base URL (a local server in tests).
    public let dataCenter: URL
    /// The account's api key (the `apiKey` query parameter; left out when empty).
    public let apiKey: String
    /// The account's domain, sent as `Origin`.
    public let origin: String
    /// The events' JSON objects, in the order they are sent.
    public let events: [JSONValue]
    /// The language asked for (the first event's `lang`), which chooses titles when the reply is decoded.
    public let language: String?

    /// A request carrying `events`.
    /// - Throws: ``SegmentifyEventError`` naming the first field of an event the guide refuses, or
    ///   `events` when there is none (Segmentify answers `NO_EVENT`).
    public init(dataCenter: URL, apiKey: String, origin: String, events: [any SegmentifyEvent]) throws(SegmentifyEventError) {
        guard !events.isEmpty else {
            throw .invalid("events", must: "hold at least one event (Segmentify answers NO_EVENT otherwise)", got: "none")
        }
        var objects: [JSONValue] = []
        for event in events { objects.append(try event.json()) }
        self.dataCenter = dataCenter
        self.apiKey = apiKey
        self.origin = origin
        self.events = objects
        self.language = events.first?.common.lang
    }

    /// A request carrying event objects you built yourself, sent as they are, unchecked: for an event
    /// the typed builders refuse or do not cover (a product view with only its `productId`, when your
    /// page has no catalog data). Prefer ``init(dataCenter:apiKey:origin:events:)``.
    /// - Parameter language: the language asked for, which chooses titles when the reply is decoded.
    /// - Throws: ``SegmentifyEventError`` for `events` when there is none, or one that is not an object
    ///   with a `name`.
    public init(dataCenter: URL, apiKey: String, origin: String, objects: [JSONValue], language: String?) throws(SegmentifyEventError) {
        guard !objects.isEmpty else {
            throw .invalid("events", must: "hold at least one event (Segmentify answers NO_EVENT otherwise)", got: "none")
        }
        for (index, object) in objects.enumerated() where object["name"]?.stringValue == nil {
            throw .invalid("events[\(index)]", must: "be an object with a \"name\"", got: JSONWriter.string(object).prefix(80).description)
        }
        self.dataCenter = dataCenter
        self.apiKey = apiKey
        self.origin = origin
        self.events = objects
        self.language = language
    }

    /// The events URL, `{dataCenter}/add/events/v1.json?apiKey={apiKey}`.
    public var url: URL {
        var components = URLComponents(url: dataCenter.appendingPathComponent("add/events/v1.json"), resolvingAgainstBaseURL: false)!
        if !apiKey.isEmpty { components.queryItems = [URLQueryItem(name: "apiKey", value: apiKey)] }
        return components.url!
    }

    /// The headers, in the order they are sent.
    public var headers: [(name: String, value: String)] {
        [("Content-Type", "application/json"), ("Accept", "application/json"), ("Origin", origin)]
    }

    /// The body: the events as one JSON array, compact, UTF-8, keys sorted.
    public var body: Data { Data(JSONWriter.string(.array(events)).utf8) }

    /// The request as RecoHTTP's value, for any ``RecoHTTP/Transport``.
    public var request: VendorRequest { VendorRequest(url: url, headers: headers, body: body) }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.dataCenter == rhs.dataCenter && lhs.apiKey == rhs.apiKey && lhs.origin == rhs.origin && lhs.events == rhs.events
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(dataCenter)
        hasher.combine(apiKey)
        hasher.combine(events)
    }
}
