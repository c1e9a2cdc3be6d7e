import RecoKit

/// The tracking requests a widget's impression, widget view and first-product click would send.
enum PreviewTracking {
    /// One request, written out as it goes on the wire.
    struct Request {
        /// `Impression`, `Widget view`, `Click on product 1`.
        let label: String
        /// Method, URL, headers and body.
        let text: String
    }

    /// The requests, or nil when they cannot be shown (the reason is in ``unavailableNote``).
    static func requests(for widget: Widget<RawProduct>) -> [Request]? {
        nil
    }

    /// Why the requests are missing, shown on the page instead of them.
    static let unavailableNote = "The tracking requests are not wired into the preview yet (RecoTracking's preview of a widget's requests is not merged in this build)."
}
