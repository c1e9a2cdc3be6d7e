import Foundation

/// What one page showed: its blocks and products, as impressions that share the page's context and
/// moment. `Tracker.track(_: PageImpressions)` journals them as one record; each is still its own
/// event (its own ``EventID``, delivered, retried and dead-lettered alone).
///
/// ```swift
/// var page = PageImpressions(context: context)
/// page.addBlock(widget)               // Segmentify: the block was rendered
/// page.addProducts(of: variant)       // Reteno: each product of the variant was shown
/// let ids = try tracker.track(page)   // consecutive ids, one per impression
/// ```
public struct PageImpressions: Sendable, Hashable {
    /// One impression of the page: a block (no product) or one product of a block.
    public struct Impression: Sendable, Hashable {
        /// The block's instance id (Segmentify `instanceId`; Reteno `recomVariantId`).
        public var instanceId: String
        /// The block's interaction id (Segmentify `actionId`).
        public var interactionId: String
        /// The product, for a product's impression.
        public var productId: String?
        /// The product's 1-based position in the block, when known.
        public var position: Int?

        /// An impression with every field given; prefer ``PageImpressions/addBlock(_:)`` and ``PageImpressions/addProducts(of:)``.
        public init(instanceId: String, interactionId: String = "", productId: String? = nil, position: Int? = nil) {
            self.instanceId = instanceId
            self.interactionId = interactionId
            self.productId = productId
            self.position = position
        }
    }

    /// Who saw the page, and where: shared by every impression.
    public var context: InteractionContext
    /// When the page was shown: shared by every impression.
    public var occurred: Date
    /// Asks the tracker to send at once (Reteno `forcePush`), as ``Interaction/forcePush`` does.
    public var forcePush: Bool
    /// The impressions, in the order they are numbered.
    public var impressions: [Impression]

    /// An empty page; add its blocks and products.
    public init(context: InteractionContext, occurred: Date = Date(), forcePush: Bool = false, impressions: [Impression] = []) {
        self.context = context
        self.occurred = occurred
        self.forcePush = forcePush
        self.impressions = impressions
    }

    /// The block was rendered (as ``Interaction/impression(of:context:occurred:)``).
    public mutating func addBlock<P>(_ widget: Widget<P>) {
        impressions.append(Impression(instanceId: widget.instanceId, interactionId: widget.interactionId))
    }

    /// Each product of the block was shown, in order, with positions (as ``Interaction/productImpressions(of:context:occurred:forcePush:)``).
    public mutating func addProducts<P>(of widget: Widget<P>) {
        impressions.reserveCapacity(impressions.count + widget.items.count)
        for item in widget.items {
            impressions.append(Impression(instanceId: widget.instanceId, interactionId: widget.interactionId,
                                          productId: item.product.productId, position: item.position))
        }
    }

    /// The impression at `index` as the interaction it stands for.
    public func interaction(_ index: Int) -> Interaction {
        let impression = impressions[index]
        return Interaction(kind: .impression, instanceId: impression.instanceId, interactionId: impression.interactionId,
                           productId: impression.productId, position: impression.position, context: context,
                           occurred: occurred, forcePush: forcePush)
    }

    /// Every impression as the interaction it stands for, in order.
    public var interactions: [Interaction] { impressions.indices.map(interaction) }
}
