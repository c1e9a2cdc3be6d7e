import RecoKit

/// A page's blocks from one or several vendors as the caller chose and rendered them: the widgets the
/// page shows (record their impressions) and their HTML.
public struct RenderedPage<Product: RecommendableProduct>: Sendable {
    /// The widgets shown, in the order of the page.
    public var widgets: [Widget<Product>]
    /// Their HTML.
    public var html: String
    /// Whether this was rendered for another page with the same answers: an earlier one, or one that
    /// waited on the same fetch and kept its rendering first.
    public var fromCache: Bool

    /// Blocks rendered as `html`.
    public init(widgets: [Widget<Product>], html: String) {
        self.widgets = widgets
        self.html = html
        self.fromCache = false
    }

    /// No blocks.
    public static var none: RenderedPage { RenderedPage(widgets: [], html: "") }
}
