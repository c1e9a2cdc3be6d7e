import Foundation
import RecoKit
import RecoDestinations
import RecoRelay
import RecoVendors

/// The tracking requests a widget's impression, widget view and first-product click would send, as
/// ``TrackingPreview`` builds them with the vendor's own destination (placeholders stand for the
/// account's key and domain).
enum PreviewTracking {
    /// One request, written out as it goes on the wire.
    struct Request {
        /// `impression`, `widget-view`, `click`…
        let label: String
        /// Method and URL, headers, a blank line and the body.
        let text: String
    }

    /// The requests, or nil for a vendor without a tracking destination.
    static func requests(for widget: Widget<RawProduct>) -> [Request]? {
        let requests = TrackingPreview.requests(for: widget)
        guard !requests.isEmpty else { return nil }
        return requests.map { request in
            Request(label: label(request.label), text: ([request.method + " " + request.url] + request.headers + ["", readable(request.body)]).joined(separator: "\n"))
        }
    }

    /// A JSON body indented, two spaces a level, so it reads without wrapping mid-token; any other body as it is.
    static func readable(_ body: String) -> String {
        guard let first = body.first(where: { !$0.isWhitespace }), first == "{" || first == "[",
              let json = try? JSONValue(parsing: Data(body.utf8)) else { return body }
        return JSONWriter.string(json, style: .pretty)
    }

    private static func label(_ name: String) -> String {
        switch name {
        case "impression": "Impression of the block"
        case "impressions": "Impressions of its products"
        case "widget-view": "Widget view"
        case "click": "Click on the first product"
        default: name
        }
    }

    /// Shown instead of requests for a vendor RecoKit cannot track.
    static let unavailableNote = "RecoKit has no tracking destination for this vendor, so there are no requests to show."
}
