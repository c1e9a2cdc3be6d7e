import RecoKit

/// A page's blocks from one or several vendors as the caller chose and rendered them: the widgets the
/// page shows (record their impressions) and their HTML, and the page's report: which step of the
/// fallback chain served each vendor's part.
public struct RenderedPage<Product: RecommendableProduct>: Sendable {
    /// The widgets shown, in the order of the page.
    public var widgets: [Widget<Product>]
    /// Their HTML.
    public var html: String
    /// Whether this was rendered for another page with the same answers: an earlier one, or one that
    /// waited on the same fetch and kept its rendering first.
    public var fromCache: Bool
    /// Which step served each vendor's part, in the order of the requests (filled in by the client:
    /// fresh, cached, stale-while-revalidate, stale-if-error, shop fallback or none, with why the steps
    /// before it did not serve).
    public var served: [ServedBlock]

    /// Blocks rendered as `html`.
    public init(widgets: [Widget<Product>], html: String) {
        self.widgets = widgets
        self.html = html
        self.fromCache = false
        self.served = []
    }

    /// No blocks.
    public static var none: RenderedPage { RenderedPage(widgets: [], html: "") }
}
