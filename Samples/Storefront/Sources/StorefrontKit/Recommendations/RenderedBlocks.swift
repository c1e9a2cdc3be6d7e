import RecoKit

/// A product page's recommendation blocks, rendered: the HTML that goes into the page and the widgets it
/// shows, so each page that uses it can record impressions and remember what the visitor was shown.
///
/// The HTML's click-through links name no visitor (see ``ClickToken``), so one rendering can serve
/// every visitor while it is cached.
public struct RenderedBlocks: Sendable {
    /// The widgets, in the order they appear.
    public var widgets: [Widget<StoreProduct>]
    /// Their HTML.
    public var html: String

    /// Blocks rendered as `html`.
    public init(widgets: [Widget<StoreProduct>], html: String) {
        self.widgets = widgets
        self.html = html
    }

    /// No blocks: the vendors gave nothing in time, or rendering failed.
    public static let none = RenderedBlocks(widgets: [], html: "")

    /// Whether there is nothing to show.
    public var isEmpty: Bool { widgets.isEmpty }

    /// What a widget-view report may name for these blocks.
    public var shown: [RenderedWidgets.Shown] {
        widgets.map { RenderedWidgets.Shown(vendor: $0.vendor, instanceId: $0.instanceId, interactionId: $0.interactionId) }
    }
}
