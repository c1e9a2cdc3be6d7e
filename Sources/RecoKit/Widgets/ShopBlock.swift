/// The marks of a block the shop filled from its own products (its best sellers, a category's top
/// products) where a vendor's block could not be shown: vendor ``Vendor/shop``, and instance and
/// interaction ids that start with ``idPrefix`` (`shop:best-sellers`).
///
/// The ids are the mark that counts: they are what every path of an interaction carries (the
/// `data-reco-instance-id` attribute a page's script reads back, a signed click link, a
/// `PageImpressions` impression, a journaled event), so a vendor's tracking destination can refuse an
/// interaction about a shop's block wherever it comes from (``Interaction/checkNotShopBlock(destination:)``,
/// which Segmentify's and Reteno's destinations call). A destination of the shop's own takes them.
///
/// ```swift
/// ShopBlock.instanceId(list: "best-sellers")          // "shop:best-sellers"
/// widget.isShopBlock                                   // true for a block made so
/// try tracker.track(.impression(of: widget, context: context))   // a vendor's tracker refuses it
/// ```
public enum ShopBlock {
    /// What a shop's block ids start with: `shop:`.
    public static let idPrefix = "shop:"

    /// The instance (and interaction) id of the shop's block filled from the list named `list`.
    public static func instanceId(list: String) -> String { idPrefix + list }

    /// Whether `instanceId` names a shop's own block.
    public static func isShopId(_ instanceId: String) -> Bool { instanceId.utf8.starts(with: idPrefix.utf8) }
}

extension Vendor {
    /// Not a vendor: the shop itself, as the source of a block filled from its own products
    /// (``ShopBlock``). Templates show it as `data-reco-vendor="shop"`.
    public static let shop: Vendor = "shop"
}

extension Widget {
    /// Whether this block is the shop's own (``ShopBlock``): its vendor is ``Vendor/shop`` or its
    /// instance id carries the shop's mark.
    public var isShopBlock: Bool { vendor == .shop || ShopBlock.isShopId(instanceId) }
}

extension Interaction {
    /// Whether this interaction is about a shop's own block: its instance id carries the shop's mark
    /// (``ShopBlock``).
    public var isAboutShopBlock: Bool { ShopBlock.isShopId(instanceId) }

    /// Refuses an interaction about a shop's own block: what a vendor's tracking destination calls
    /// first in its validation, so that the shop's blocks never reach a vendor as the vendor's own.
    /// - Parameter destination: the destination's name, for the message (`segmentify`).
    /// - Throws: ``InteractionError/shopBlock(_:destination:)``.
    public func checkNotShopBlock(destination: String) throws(InteractionError) {
        if isAboutShopBlock { throw .shopBlock(instanceId, destination: destination) }
    }
}
