import Foundation

extension Interaction {
    /// The block was rendered: Segmentify `impression` with the block's instance and interaction ids.
    public static func impression<P>(of widget: Widget<P>, context: InteractionContext, occurred: Date = Date()) -> Interaction {
        Interaction(kind: .impression, instanceId: widget.instanceId, interactionId: widget.interactionId,
                    context: context, occurred: occurred)
    }

    /// The block was seen: Segmentify `widget-view` with the block's instance and interaction ids.
    public static func widgetView<P>(of widget: Widget<P>, context: InteractionContext, occurred: Date = Date()) -> Interaction {
        Interaction(kind: .widgetView, instanceId: widget.instanceId, interactionId: widget.interactionId,
                    context: context, occurred: occurred)
    }

    /// One impression per product of the block, in order, with positions (Reteno's impressions of a variant).
    public static func productImpressions<P>(of widget: Widget<P>, context: InteractionContext = InteractionContext(),
                                             occurred: Date = Date(), forcePush: Bool = false) -> [Interaction] {
        widget.items.map { item in
            Interaction(kind: .impression, instanceId: widget.instanceId, interactionId: widget.interactionId,
                        productId: item.product.productId, position: item.position, context: context,
                        occurred: occurred, forcePush: forcePush)
        }
    }

    /// A click on a product of the block, with its position.
    ///
    /// - Throws: ``InteractionError`` when the product id is empty or the block does not hold the product.
    public static func click<P>(productId: String, in widget: Widget<P>, context: InteractionContext,
                                occurred: Date = Date(), forcePush: Bool = false) throws(InteractionError) -> Interaction {
        var click = Interaction(kind: .click, instanceId: widget.instanceId, interactionId: widget.interactionId,
                                productId: productId, context: context, occurred: occurred, forcePush: forcePush)
        try click.check(against: widget)
        return click
    }

    /// A click on a product of a search result, before the search (`bs_product`) or after it (`product`).
    public static func searchClick(productId: String, phase: SearchPhase, context: InteractionContext,
                                   occurred: Date = Date()) -> Interaction {
        Interaction(kind: .searchClick, instanceId: "", productId: productId, searchPhase: phase,
                    context: context, occurred: occurred)
    }

    /// Checks that the interaction belongs to `widget` and fills in the product's position.
    ///
    /// Impressions and widget views must name the widget's instance id; clicks must name a product the
    /// widget holds. Search clicks are not tied to a widget and always pass.
    public mutating func check<P>(against widget: Widget<P>) throws(InteractionError) {
        if kind == .searchClick { return }
        if kind == .vendorEvent { throw .notInWidget("a vendor event is not tied to a widget") }
        guard instanceId == widget.instanceId else {
            throw .notInWidget("the \(kind.rawValue) names instanceId \"\(instanceId)\" but the widget is \"\(widget.instanceId)\"")
        }
        guard let productId else {
            if kind == .click { throw .emptyProductId(for: kind) }
            return
        }
        guard !productId.isEmpty else { throw .emptyProductId(for: kind) }
        guard let item = widget.item(productId: productId) else {
            throw .notInWidget("product \"\(productId)\" is not in widget \"\(widget.instanceId)\" (\(widget.items.count) products)")
        }
        if position == nil { position = item.position }
    }

    /// Checks what every vendor needs: a time in ``InteractionTime/trackable``; a vendor event carries a
    /// named ``VendorEvent`` (and no other kind does); otherwise an instance id (except search clicks) and,
    /// for product interactions, a non-empty product id.
    public func checkShape() throws(InteractionError) {
        guard InteractionTime.isTrackable(occurred) else { throw .occurredOutOfRange(occurred, for: kind) }
        if kind == .vendorEvent {
            guard let vendorEvent else { throw .missingField("vendorEvent", for: kind) }
            guard !vendorEvent.name.isEmpty else { throw .missingField("vendorEvent.name", for: kind) }
            return
        }
        if vendorEvent != nil { throw .malformed("\(kind.withArticle) cannot carry a vendor event") }
        switch kind {
        case .click, .searchClick:
            guard let productId, !productId.isEmpty else { throw .emptyProductId(for: kind) }
        case .impression, .widgetView:
            if let productId, productId.isEmpty { throw .emptyProductId(for: kind) }
        case .vendorEvent:
            break
        }
        if kind != .searchClick, instanceId.isEmpty { throw .missingField("instanceId", for: kind) }
        if kind == .searchClick, searchPhase == nil, instanceId.isEmpty { throw .missingField("phase", for: kind) }
    }
}
