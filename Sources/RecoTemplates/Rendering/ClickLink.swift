/// Where a product's link points: lets a server send clicks through its own redirect (to record them)
/// instead of linking straight to the product.
///
/// When a ``WidgetRenderer`` has one, a product's `link` is the URL this returns for it; the product's
/// own URL is still there as `productLink`. A product without a safe link of its own gets no link, so
/// the redirect can never be built for a URL the renderer would have refused.
///
/// ```swift
/// var renderer = WidgetRenderer()
/// renderer.clickLink = ClickLink { target in "/r?block=\(target.instanceId)&product=\(target.productId)" }
/// ```
public struct ClickLink: Sendable {
    private let make: @Sendable (ClickTarget) -> String?

    /// A click link made by `make`; returning nil writes the product's own link.
    public init(_ make: @escaping @Sendable (ClickTarget) -> String?) {
        self.make = make
    }

    /// The URL for a click on `target`, or nil for the product's own link.
    public func url(for target: ClickTarget) -> String? { make(target) }
}

/// A product a visitor may click, as a ``ClickLink`` sees it: the block, the product, its place and its own URL.
public struct ClickTarget: Sendable, Hashable {
    /// Who sent the block.
    public var vendor: Vendor
    /// The block's instance id.
    public var instanceId: String
    /// The block's interaction id.
    public var interactionId: String
    /// The product's id.
    public var productId: String
    /// The product's 1-based position in the block.
    public var position: Int
    /// The product's own link, already checked by ``SafeLink`` (a `//host` link made https).
    public var link: String

    /// A click target.
    public init(vendor: Vendor, instanceId: String, interactionId: String, productId: String, position: Int, link: String) {
        self.vendor = vendor
        self.instanceId = instanceId
        self.interactionId = interactionId
        self.productId = productId
        self.position = position
        self.link = link
    }
}
