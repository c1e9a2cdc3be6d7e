import RecoKit

/// What the storefront takes from a vendor's reply at most, checked before anything is rendered or
/// computed with: a block over a limit is left out, a product over a limit is skipped, and the reason is
/// logged. The reply's size is bounded before this (``VendorSettings/maxReplyBytes``).
public struct ReplyLimits: Sendable, Hashable {
    /// A Segmentify block asking for more products than this (`itemCount`) is left out before decoding
    /// (see ``SegmentifyCountCheck``).
    public var maxItemCount = 100
    /// Blocks shown per vendor; later ones are left out.
    public var maxBlocks = 12
    /// Products shown per block; later ones are left out.
    public var maxProductsPerBlock = 48
    /// The longest instance, interaction or product id, in UTF-8 bytes.
    public var maxIdBytes = 128
    /// The longest product name, in UTF-8 bytes.
    public var maxTitleBytes = 512
    /// The longest product URL, in UTF-8 bytes (a click link carries it, signed).
    public var maxURLBytes = 2048
    /// The highest position a product may have in its block.
    public var maxPosition = 10_000

    /// The defaults.
    public init() {}
}

extension ReplyLimits {
    /// Why a block cannot be shown, or nil.
    func refusal(of widget: Widget<StoreProduct>) -> String? {
        for (name, value) in [("instanceId", widget.instanceId), ("interactionId", widget.interactionId)] where value.utf8.count > maxIdBytes {
            return "its \(name) is \(value.utf8.count) bytes, over \(maxIdBytes)"
        }
        return nil
    }

    /// Why a product cannot be shown, or nil.
    func refusal(of item: WidgetItem<StoreProduct>) -> String? {
        let product = item.product
        if product.productId.utf8.count > maxIdBytes { return "its productId is \(product.productId.utf8.count) bytes, over \(maxIdBytes)" }
        if product.title.utf8.count > maxTitleBytes { return "\(product.productId): its name is \(product.title.utf8.count) bytes, over \(maxTitleBytes)" }
        if let url = product.pageURL, url.utf8.count > maxURLBytes { return "\(product.productId): its url is \(url.utf8.count) bytes, over \(maxURLBytes)" }
        if !(1...maxPosition).contains(item.position) { return "\(product.productId): position \(item.position) is outside 1...\(maxPosition)" }
        return nil
    }
}
