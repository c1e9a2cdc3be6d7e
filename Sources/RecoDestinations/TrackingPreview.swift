import Foundation
import RecoHTTP
import RecoKit
import RecoTracking

/// The exact tracking requests a widget's interactions would send, for showing beside a rendered
/// preview: for Segmentify an impression, a widget view and a click on the first product (one request
/// each); for Reteno the impressions of every product and a click on the first.
///
/// ```swift
/// for request in TrackingPreview.requests(for: widget) {
///     print(request.label, request.method, request.url)
///     print(request.body)
/// }
/// ```
public enum TrackingPreview {
    /// One request as it would go on the wire.
    public struct PreviewRequest: Sendable, Hashable {
        /// What the request reports (`impression`, `widget-view`, `click`, `impressions`).
        public var label: String
        /// `POST`.
        public var method: String
        /// The full URL.
        public var url: String
        /// Headers in order.
        public var headers: [String]
        /// The body, as sent.
        public var body: String
    }

    /// The visitor the preview pretends to be.
    public static let previewContext = InteractionContext(userId: "preview-user", sessionId: "preview-session")

    /// The requests for `widget`'s vendor; empty for vendors without a tracking destination.
    ///
    /// Placeholders stand for the account's settings unless given. Event ids in the preview are
    /// `0000000000000000-1`, `-2`, … (a tracker gives real ones).
    public static func requests<P>(for widget: Widget<P>, context: InteractionContext = previewContext,
                                   occurred: Date = Date(timeIntervalSince1970: 1_714_566_896),
                                   endpoint: URL? = nil, apiKey: String = "YOUR_API_KEY",
                                   origin: String = "YOUR_DOMAIN") -> [PreviewRequest] {
        var sequence: UInt64 = 0
        func tracked(_ interaction: Interaction) -> EventRecord {
            sequence += 1
            return EventRecord(TrackedEvent(id: EventID(run: 0, sequence: sequence), interaction: interaction))
        }
        func preview(_ label: String, _ request: VendorRequest) -> PreviewRequest {
            PreviewRequest(label: label, method: request.method, url: request.url.absoluteString,
                           headers: request.headers.map { "\($0.name): \($0.value)" },
                           body: String(decoding: request.body, as: UTF8.self))
        }
        let first = widget.items.first
        let firstClick = first.map {
            Interaction(kind: .click, instanceId: widget.instanceId, interactionId: widget.interactionId,
                        productId: $0.product.productId, position: $0.position, context: context, occurred: occurred)
        }
        switch widget.vendor {
        case .segmentify:
            let destination = SegmentifyDestination(dataCenter: endpoint ?? URL(string: "https://YOUR_DATA_CENTER.segmentify.com")!,
                                                    apiKey: apiKey, origin: origin)
            var requests = [
                preview("impression", destination.request(for: [tracked(.impression(of: widget, context: context, occurred: occurred))])),
                preview("widget-view", destination.request(for: [tracked(.widgetView(of: widget, context: context, occurred: occurred))])),
            ]
            if let firstClick { requests.append(preview("click", destination.request(for: [tracked(firstClick)]))) }
            return requests
        case .reteno:
            let destination = RetenoDestination(base: endpoint ?? URL(string: "https://mobile-api.reteno.com")!, accessKey: apiKey)
            let impressions = Interaction.productImpressions(of: widget, context: context, occurred: occurred).map(tracked)
            var requests: [PreviewRequest] = []
            if !impressions.isEmpty { requests.append(preview("impressions", destination.request(for: impressions))) }
            if let firstClick { requests.append(preview("click", destination.request(for: [tracked(firstClick)]))) }
            return requests
        default:
            return []
        }
    }
}
