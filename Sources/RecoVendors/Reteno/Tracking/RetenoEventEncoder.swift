import Foundation
import RecoTracking

/// Writes interactions as Reteno recommendation events:
/// `{"events":[{"recomVariantId":"r1107v1482","impressions":[{"occurred":"2024-05-01T12:34:56Z","productId":"240-LV09"}],"clicks":[…]}]}`.
///
/// Events are grouped by variant (one element per `recomVariantId`, in order of first appearance);
/// an empty list is left out; `occurred` is ISO 8601 UTC with whole seconds and `Z`. The tracker's
/// event id is added to each impression or click as `eventId` (turn off with `includeEventIds: false`).
/// Keys are written in sorted order, as ``JSONWriter`` writes them.
public enum RetenoEventEncoder {
    /// The body for a batch.
    public static func body(_ events: [TrackedEvent], includeEventIds: Bool = true) -> Data {
        // Group by variant (indices into `events`), keeping the order of first appearance.
        var order: [String] = []
        var groups: [String: (impressions: [Int], clicks: [Int])] = [:]
        for (index, event) in events.enumerated() {
            let variant = event.interaction.instanceId
            if groups[variant] == nil { order.append(variant) }
            if event.interaction.kind == .click {
                groups[variant, default: ([], [])].clicks.append(index)
            } else {
                groups[variant, default: ([], [])].impressions.append(index)
            }
        }
        var out = ""
        out.reserveCapacity(32 + events.count * (includeEventIds ? 96 : 64))
        out += #"{"events":["#
        for (number, variant) in order.enumerated() {
            let group = groups[variant]!
            out += number == 0 ? "{" : ",{"
            if !group.clicks.isEmpty {
                write(group.clicks, of: events, as: "clicks", includeEventIds: includeEventIds, to: &out)
                out += ","
            }
            if !group.impressions.isEmpty {
                write(group.impressions, of: events, as: "impressions", includeEventIds: includeEventIds, to: &out)
                out += ","
            }
            out += #""recomVariantId":"#
            JSONWriter.writeString(variant, to: &out)
            out += "}"
        }
        out += "]}"
        return Data(out.utf8)
    }

    /// `"name":[{"eventId":…,"occurred":…,"productId":…},…]`
    private static func write(_ indices: [Int], of events: [TrackedEvent], as name: String, includeEventIds: Bool, to out: inout String) {
        out += "\"" + name + "\":["
        for (number, index) in indices.enumerated() {
            let event = events[index]
            out += number == 0 ? "{" : ",{"
            if includeEventIds {
                out += #""eventId":""#
                out += event.id.description
                out += #"","#
            }
            out += #""occurred":""#
            out += InteractionTime.iso8601(event.interaction.occurred)
            out += #"","productId":"#
            JSONWriter.writeString(event.interaction.productId ?? "", to: &out)
            out += "}"
        }
        out += "]"
    }
}
