import Foundation

extension PageImpressions {
    /// Where the impression at `index` is, for an error's message: its place and identifying fields.
    public func place(of index: Int) -> String {
        let impression = impressions[index]
        var place = "impression \(index) of the page (instanceId \"\(impression.instanceId)\""
        if let productId = impression.productId { place += ", productId \"\(productId)\"" }
        return place + ")"
    }

    /// What ``Interaction/checkShape()`` checks, for every impression, without building an interaction:
    /// the page's time (in ``InteractionTime/trackable``), then, since an impression carries no vendor
    /// event, only its instance id (non-empty) and its product id (absent or non-empty) can be wrong. The
    /// first bad impression is named.
    /// - Throws: ``InteractionError`` located at the impression (``place(of:)``).
    public func checkShapes() throws(InteractionError) {
        guard InteractionTime.isTrackable(occurred) else { throw .occurredOutOfRange(occurred, for: .impression) }
        for index in impressions.indices {
            let impression = impressions[index]
            if let productId = impression.productId, productId.isEmpty {
                throw InteractionError.emptyProductId(for: .impression).located(place(of: index))
            }
            if impression.instanceId.isEmpty { throw InteractionError.missingField("instanceId", for: .impression).located(place(of: index)) }
        }
    }
}

extension TrackingDestination {
    /// Validates each impression as the interaction it stands for with ``validate(_:)-(Interaction)``: every
    /// rule of the destination applies to every impression. The first refused impression is named.
    public func validate(_ page: PageImpressions) throws(InteractionError) {
        guard !page.impressions.isEmpty else { return }
        // One interaction, its per-impression fields changed in place: the context is copied once a page.
        var interaction = page.interaction(0)
        for index in page.impressions.indices {
            let impression = page.impressions[index]
            interaction.instanceId = impression.instanceId
            interaction.interactionId = impression.interactionId
            interaction.productId = impression.productId
            interaction.position = impression.position
            do { try validate(interaction) } catch { throw error.located(page.place(of: index)) }
        }
    }
}
