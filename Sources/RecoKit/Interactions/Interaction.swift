import Foundation

/// Something a visitor did with a recommendation: saw a block, looked at it, clicked a product,
/// clicked a search result, or (Reteno) saw or clicked a product of a recommendation variant.
///
/// Build interactions from the widget you showed, so ids and positions are right by construction:
///
/// ```swift
/// let view = Interaction.widgetView(of: widget, context: context)
/// let click = try Interaction.click(productId: "240-LV09", in: widget, context: context)
/// ```
///
/// The same value is encoded at send time in the format of the vendor it is delivered to.
public struct Interaction: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The block was rendered (Segmentify `impression`), or a product of it was (Reteno impression,
        /// with ``Interaction/productId`` set).
        case impression
        /// The block was actually seen (Segmentify `widget-view`).
        case widgetView = "widget-view"
        /// A product of the block was clicked.
        case click
        /// A product of a search result was clicked.
        case searchClick = "search-click"
        /// A vendor's own event (a page view, a purchase…), carried whole in ``Interaction/vendorEvent``.
        case vendorEvent = "vendor-event"
    }

    /// When a search click happened, relative to the search.
    public enum SearchPhase: String, Sendable, Hashable, CaseIterable {
        /// The product was shown before the visitor typed (Segmentify campaign `BEFORE_SEARCH`; instanceId `bs_product`).
        case beforeSearch = "before-search"
        /// The product was a result of the search (Segmentify campaign `SEARCH`; instanceId `product`).
        case search
    }

    /// What happened.
    public var kind: Kind
    /// The block's instance id (Segmentify `instanceId`; Reteno `recomVariantId`). For a search click,
    /// the vendor's fixed instance id is derived from ``searchPhase`` when this is empty.
    public var instanceId: String
    /// The block's interaction id (Segmentify `actionId`), for impressions and widget views.
    public var interactionId: String
    /// The product, for clicks, search clicks and Reteno impressions.
    public var productId: String?
    /// The product's 1-based position in the block, when known.
    public var position: Int?
    /// For a search click, whether it was before or after the search.
    public var searchPhase: SearchPhase?
    /// Who, where.
    public var context: InteractionContext
    /// When it happened.
    public var occurred: Date
    /// Asks the tracker to send now instead of waiting for a full batch (Reteno `forcePush`);
    /// trackers honour it at most once a second.
    public var forcePush: Bool
    /// For a ``Kind/vendorEvent``, the event itself; nil for every other kind.
    public var vendorEvent: VendorEvent?

    /// An interaction with every field given; prefer the builders (``impression(of:context:occurred:)`` and others).
    public init(kind: Kind, instanceId: String, interactionId: String = "", productId: String? = nil,
                position: Int? = nil, searchPhase: SearchPhase? = nil, context: InteractionContext = InteractionContext(),
                occurred: Date = Date(), forcePush: Bool = false, vendorEvent: VendorEvent? = nil) {
        self.kind = kind
        self.instanceId = instanceId
        self.interactionId = interactionId
        self.productId = productId
        self.position = position
        self.searchPhase = searchPhase
        self.context = context
        self.occurred = occurred
        self.forcePush = forcePush
        self.vendorEvent = vendorEvent
    }

    /// A vendor's own event from `context` (the common fields), delivered by the same tracker and in
    /// the same batches as interactions.
    public static func vendorEvent(_ event: VendorEvent, context: InteractionContext, occurred: Date = Date(),
                                   forcePush: Bool = false) -> Interaction {
        Interaction(kind: .vendorEvent, instanceId: "", context: context, occurred: occurred, forcePush: forcePush,
                    vendorEvent: event)
    }
}
