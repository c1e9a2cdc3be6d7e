import Foundation

extension Interaction {
    /// Reteno's recommendation events for one variant: an impression per product shown and a click per
    /// product clicked, all at `occurred`. With `forcePush`, the tracker sends them at once (at most
    /// once a second) instead of waiting for a full batch.
    ///
    /// ```swift
    /// let events = Interaction.recomEvents(variant: "r1107v1482", impressions: ["240-LV09", "318-KZ11"],
    ///                                      clicks: ["240-LV09"], forcePush: true)
    /// for event in events { try tracker.track(event) }
    /// ```
    public static func recomEvents(variant recomVariantId: String, impressions: [String], clicks: [String] = [],
                                   occurred: Date = Date(), forcePush: Bool = false) -> [Interaction] {
        let shown = impressions.map {
            Interaction(kind: .impression, instanceId: recomVariantId, interactionId: recomVariantId, productId: $0,
                        occurred: occurred)
        }
        let clicked = clicks.map {
            Interaction(kind: .click, instanceId: recomVariantId, interactionId: recomVariantId, productId: $0, occurred: occurred)
        }
        var all = shown + clicked
        // The flush request rides on the last event, once all of them are journaled.
        if forcePush, !all.isEmpty { all[all.count - 1].forcePush = true }
        return all
    }
}
