import Foundation
import RecoHTTP
@_spi(JSONTape) import RecoKit
import RecoTracking

/// Delivers interactions and Segmentify's own events to Segmentify's events endpoint:
/// `POST {dataCenterUrl}/add/events/v1.json?apiKey={apiKey}` with a JSON array of `INTERACTION` events
/// mixed with page views, product views, checkouts and the others (see `SegmentifyEvent`)
/// and the headers `Content-Type` and `Accept: application/json` and `Origin: {subDomain}`.
///
/// ```swift
/// let destination = SegmentifyDestination(dataCenter: URL(string: "https://gandalf.segmentify.com")!,
///                                         apiKey: "8157d334-…", origin: "shop.example")
/// ```
///
/// Every event needs a `userId` and `sessionId`; `track` refuses one without. Replies are judged by
/// HTTP status first, then by the body's `statusCode` (see ``SegmentifyReplyCode``).
public struct SegmentifyDestination: TrackingDestination {
    /// The data center base URL (a local server in tests).
    public var dataCenter: URL
    /// The account's API key.
    public var apiKey: String
    /// The account's domain, sent as `Origin`.
    public var origin: String
    /// Whether each event carries the tracker's id in `params.eventId`. Default true.
    public var includeEventIds: Bool
    public var limits: DestinationLimits

    /// A destination; batches hold at most `maxEvents` events (default 100).
    public init(dataCenter: URL, apiKey: String, origin: String, includeEventIds: Bool = true, maxEvents: Int = 100) {
        self.dataCenter = dataCenter
        self.apiKey = apiKey
        self.origin = origin
        self.includeEventIds = includeEventIds
        self.limits = DestinationLimits(maxEvents: maxEvents, maxBytes: 512 * 1024)
    }

    public var name: String { "segmentify" }

    /// The events URL with the API key (left out when empty).
    public var eventsURL: URL {
        var components = URLComponents(url: dataCenter.appendingPathComponent("add/events/v1.json"), resolvingAgainstBaseURL: false)!
        if !apiKey.isEmpty { components.queryItems = [URLQueryItem(name: "apiKey", value: apiKey)] }
        return components.url!
    }

    public func validate(_ interaction: Interaction) throws(InteractionError) {
        try interaction.checkNotShopBlock(destination: name)
        guard let userId = interaction.context.userId, !userId.isEmpty else { throw .missingField("userId", for: interaction.kind) }
        guard let sessionId = interaction.context.sessionId, !sessionId.isEmpty else {
            throw .missingField("sessionId", for: interaction.kind)
        }
        if let vendorEvent = interaction.vendorEvent, vendorEvent.vendor != .segmentify {
            throw .unsupported("Segmentify cannot deliver a \(vendorEvent.vendor) event (\(vendorEvent.name))")
        }
        if interaction.kind == .impression || interaction.kind == .widgetView, interaction.interactionId.isEmpty {
            throw .missingField("interactionId", for: interaction.kind)
        }
    }

    /// ``validate(_:)-(Interaction)`` for a page: no impression of a shop's own block, its shared user and
    /// session once, then each impression's interaction id (a page's impressions carry no vendor event).
    /// Refuses exactly what validating each impression refuses.
    public func validate(_ page: PageImpressions) throws(InteractionError) {
        guard !page.impressions.isEmpty else { return }
        for index in page.impressions.indices where ShopBlock.isShopId(page.impressions[index].instanceId) {
            throw InteractionError.shopBlock(page.impressions[index].instanceId, destination: name).located(page.place(of: index))
        }
        let context = page.context
        guard let userId = context.userId, !userId.isEmpty else { throw InteractionError.missingField("userId", for: .impression).located(page.place(of: 0)) }
        guard let sessionId = context.sessionId, !sessionId.isEmpty else {
            throw InteractionError.missingField("sessionId", for: .impression).located(page.place(of: 0))
        }
        for index in page.impressions.indices where page.impressions[index].interactionId.isEmpty {
            throw InteractionError.missingField("interactionId", for: .impression).located(page.place(of: index))
        }
    }

    /// The request for `records`: a JSON array of their events, written straight from the records' bytes.
    public func request(for records: [EventRecord]) -> VendorRequest {
        VendorRequest(url: eventsURL,
                      headers: [("Content-Type", "application/json"), ("Accept", "application/json"), ("Origin", origin)],
                      body: SegmentifyEventEncoder.body(records: records, includeEventIds: includeEventIds))
    }

    public func verdict(for reply: VendorReply, eventCount: Int, now: Date) -> DeliveryVerdict {
        let standard = DeliveryVerdict.standard(for: reply, now: now)
        // Passing faults stay passing whatever the body says, and a redirect's body answers for nothing sent.
        if [408, 429].contains(reply.status) || (300..<400).contains(reply.status) || (500..<600).contains(reply.status) { return standard }
        // Only the status code is read: in place, with no tree of a reply that may carry recommendations.
        if let body = try? JSONTape.parse(reply.body), let code = body.root["statusCode"]?.stringValue,
           let verdict = SegmentifyReplyCode.verdict(code: code, reply: reply) {
            return verdict
        }
        return standard
    }
}
