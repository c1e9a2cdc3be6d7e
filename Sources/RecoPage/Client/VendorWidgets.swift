import RecoKit

/// One vendor's part of a page: the widgets it shows, or why there are none, and which step of the
/// fallback chain served it (``served``).
public struct VendorWidgets<Product: RecommendableProduct>: Sendable {
    /// The vendor asked.
    public var vendor: Vendor
    /// The decoded widgets the part shows with their report (the vendor's, a kept answer's, or the
    /// shop's lists': see ``served``), or the vendor's reason when no step served.
    public var result: Result<Recommendations<Product>, NoWidgets>
    /// Which step of the fallback chain served the part, and why the steps before it did not.
    public var served: ServedBlock

    /// A vendor's part; `served` says which step served it (by default: fresh for widgets, none for a
    /// failure).
    public init(vendor: Vendor, result: Result<Recommendations<Product>, NoWidgets>, served: ServedBlock? = nil) {
        self.vendor = vendor
        self.result = result
        if let served {
            self.served = served
        } else {
            switch result {
            case .success: self.served = ServedBlock(vendor: vendor, step: .fresh)
            case .failure(let reason):
                self.served = ServedBlock(vendor: vendor, step: .none, failure: reason,
                                          passedOver: [.init(step: .fresh, reason: reason.description)])
            }
        }
    }

    /// The widgets shown; empty when no step served. A shop's list's widgets are the shop's own
    /// (`Widget.isShopBlock`): track them to no vendor.
    public var widgets: [Widget<Product>] { (try? result.get().widgets) ?? [] }

    /// Why the vendor gave no answer to show, or nil: also when a later step (a kept answer, the shop's
    /// lists) filled its place, so that an outage is never hidden by its fallback.
    public var failure: NoWidgets? {
        if let failure = served.failure { return failure }
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

/// Widgets with their HTML, whether the HTML came from the cache, and which step of the fallback chain
/// served them.
public struct RenderedRecommendations<Product: RecommendableProduct>: Sendable {
    /// The widgets shown (record their impressions; a shop's list's widgets to no vendor).
    public var recommendations: Recommendations<Product>
    /// Their HTML.
    public var html: String
    /// Whether the HTML was rendered for another page with the same answer: an earlier one, or one that
    /// waited on the same fetch and kept its rendering first.
    public var htmlFromCache: Bool
    /// Which step of the fallback chain served the widgets, and why the steps before it did not.
    public var served: ServedBlock
}
