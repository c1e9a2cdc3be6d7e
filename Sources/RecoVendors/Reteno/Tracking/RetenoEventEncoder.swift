import Foundation
import RecoTracking

/// Writes interactions as Reteno recommendation events:
/// `{"events":[{"recomVariantId":"r1107v1482","impressions":[{"occurred":"2024-05-01T12:34:56Z","productId":"240-LV09"}],"clicks":[…]}]}`.
///
/// Events are grouped by variant (one element per `recomVariantId`, in order of first appearance);
/// an empty list is left out; `occurred` is ISO 8601 UTC with whole seconds and `Z`. The tracker's
/// event id is added to each impression or click as `eventId` (turn off with `includeEventIds: false`).
public enum RetenoEventEncoder {
    /// The body for a batch.
    public static func body(_ events: [TrackedEvent], includeEventIds: Bool = true) -> Data {
        var order: [String] = []
        var groups: [String: (impressions: [JSONValue], clicks: [JSONValue])] = [:]
        for event in events {
            let interaction = event.interaction
            var entry: [String: JSONValue] = [
                "occurred": .string(InteractionTime.iso8601(interaction.occurred)),
                "productId": .string(interaction.productId ?? ""),
            ]
            if includeEventIds { entry["eventId"] = .string(event.id.description) }
            let variant = interaction.instanceId
            if groups[variant] == nil {
                order.append(variant)
                groups[variant] = ([], [])
            }
            if interaction.kind == .click { groups[variant]!.clicks.append(.object(entry)) } else { groups[variant]!.impressions.append(.object(entry)) }
        }
        let elements: [JSONValue] = order.map { variant in
            let group = groups[variant]!
            var element: [String: JSONValue] = ["recomVariantId": .string(variant)]
            if !group.impressions.isEmpty { element["impressions"] = .array(group.impressions) }
            if !group.clicks.isEmpty { element["clicks"] = .array(group.clicks) }
            return .object(element)
        }
        return Data(JSONWriter.string(.object(["events": .array(elements)])).utf8)
    }
}
