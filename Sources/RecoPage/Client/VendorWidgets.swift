import RecoKit

/// One vendor's part of a page: its widgets, or why it gave none.
public struct VendorWidgets<Product: RecommendableProduct>: Sendable {
    /// The vendor asked.
    public var vendor: Vendor
    /// The decoded widgets with their report, or the reason there are none.
    public var result: Result<Recommendations<Product>, NoWidgets>

    /// A vendor's part.
    public init(vendor: Vendor, result: Result<Recommendations<Product>, NoWidgets>) {
        self.vendor = vendor
        self.result = result
    }

    /// The widgets; empty when the vendor gave none.
    public var widgets: [Widget<Product>] { (try? result.get().widgets) ?? [] }

    /// Why the vendor gave none, or nil.
    public var failure: NoWidgets? {
        if case .failure(let reason) = result { return reason }
        return nil
    }
}

extension Array {
    /// Every vendor's widgets, in order (for rendering a page's blocks at once).
    public func allWidgets<Product>() -> [Widget<Product>] where Element == VendorWidgets<Product> {
        flatMap(\.widgets)
    }
}

/// Widgets with their HTML, and whether the HTML came from the cache.
public struct RenderedRecommendations<Product: RecommendableProduct>: Sendable {
    /// The widgets shown (record their impressions).
    public var recommendations: Recommendations<Product>
    /// Their HTML.
    public var html: String
    /// Whether the HTML was rendered for another page with the same answer: an earlier one, or one that
    /// waited on the same fetch and kept its rendering first.
    public var htmlFromCache: Bool
}
