import Foundation
@testable import RecoDestinations
import RecoKit
import RecoTracking
@testable import RecoVendors

// The vendors' encoders written plainly over decoded events, kept as oracles: the destinations write a
// batch's body straight from its records (the one path that ships), and the encoding tests check those
// bytes against these, byte for byte.
/// Writes interactions as Segmentify `INTERACTION` events, and Segmentify's own events (``VendorEvent``s
/// of vendor `segmentify`, built with `SegmentifyPageView`, `SegmentifyProductView` and the others) as
/// their `name`, the common fields, then the event's fields as they are.
///
/// - impression / widget-view: `instanceId` and `interactionId` of the block.
/// - click: `interactionId` is the product id; when the block's `instanceId` starts with `fcs_`
///   (faceted search), `|product` is appended to it, as Segmentify's iOS SDK does.
/// - search click: a `click` with `instanceId` `bs_product` before the search, `product` after it, and
///   the product id as `interactionId`.
///
/// The common fields (`userId`, `sessionId`, `lang`, `currency`, `pageUrl`, `testMode`, `region`,
/// `os`, `device`) are sent when set. The tracker's event id goes in `params.eventId` (Segmentify's
/// documented free-form object), so a receiver can recognise a re-sent duplicate. A vendor event's own
/// `params` (a custom event's) are merged into that object after the context's.
enum SegmentifyOracle {
    /// The event as a JSON object.
    static func event(_ event: TrackedEvent, includeEventId: Bool = true) -> JSONValue {
        object(event.interaction, eventId: includeEventId ? event.id : nil)
    }

    /// The object of one interaction or vendor event, with `eventId` in `params` when given.
    static func object(_ interaction: Interaction, eventId: EventID?) -> JSONValue {
        let context = interaction.context
        if let vendorEvent = interaction.vendorEvent { return SegmentifyEventJSON.object(vendorEvent, context: context, eventId: eventId?.description) }
        var fields: [String: JSONValue] = ["name": "INTERACTION"]
        switch interaction.kind {
        case .impression, .widgetView:
            fields["type"] = .string(interaction.kind == .impression ? "impression" : "widget-view")
            fields["instanceId"] = .string(interaction.instanceId)
            fields["interactionId"] = .string(interaction.interactionId)
        case .click:
            let productId = interaction.productId ?? ""
            fields["type"] = "click"
            fields["instanceId"] = .string(interaction.instanceId)
            fields["interactionId"] = .string(interaction.instanceId.hasPrefix("fcs_") ? productId + "|product" : productId)
        case .searchClick:
            fields["type"] = "click"
            fields["instanceId"] = .string(searchInstanceId(interaction))
            fields["interactionId"] = .string(interaction.productId ?? "")
        case .vendorEvent:
            break // has a vendor event, handled above
        }
        SegmentifyEventJSON.addCommon(context, eventId: eventId?.description, to: &fields)
        return .object(fields)
    }

    /// A batch as the JSON array Segmentify's events endpoint takes: the same text as writing each
    /// ``event(_:includeEventId:)`` with sorted keys, written directly (no intermediate values).
    static func body(_ events: [TrackedEvent], includeEventIds: Bool = true) -> Data {
        var text = "["
        text.reserveCapacity(events.count * 320)
        for (index, event) in events.enumerated() {
            if index > 0 { text += "," }
            write(event, includeEventId: includeEventIds, to: &text)
        }
        text += "]"
        return Data(text.utf8)
    }

    /// Writes one event's object, keys in sorted order.
    static func write(_ event: TrackedEvent, includeEventId: Bool, to text: inout String) {
        let interaction = event.interaction
        if interaction.vendorEvent != nil {
            JSONWriter.write(object(interaction, eventId: includeEventId ? event.id : nil), to: &text)
            return
        }
        let context = interaction.context
        let type: String
        let instanceId: String
        let interactionId: String
        switch interaction.kind {
        case .impression, .widgetView:
            type = interaction.kind == .impression ? "impression" : "widget-view"
            instanceId = interaction.instanceId
            interactionId = interaction.interactionId
        case .click:
            let productId = interaction.productId ?? ""
            type = "click"
            instanceId = interaction.instanceId
            interactionId = instanceId.hasPrefix("fcs_") ? productId + "|product" : productId
        case .searchClick:
            type = "click"
            instanceId = searchInstanceId(interaction)
            interactionId = interaction.productId ?? ""
        case .vendorEvent:
            return // written above
        }
        var first = true
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            text += first ? "{\"" : ",\""
            first = false
            text += key
            text += "\":"
            JSONWriter.writeString(value, to: &text)
        }
        field("currency", context.currency)
        field("device", context.device)
        field("instanceId", instanceId)
        field("interactionId", interactionId)
        field("lang", context.lang)
        field("name", "INTERACTION")
        field("os", context.os)
        field("pageUrl", context.pageUrl)
        var params = context.params
        if includeEventId { params["eventId"] = .string(event.id.description) }
        if !params.isEmpty {
            text += ",\"params\":"
            JSONWriter.write(.object(params), to: &text)
        }
        field("region", context.region)
        field("sessionId", context.sessionId)
        if let testMode = context.testMode { text += testMode ? ",\"testMode\":true" : ",\"testMode\":false" }
        field("type", type)
        field("userId", context.userId)
        text += "}"
    }

    /// `bs_product` before a search, `product` after it, unless the interaction names its own.
    static func searchInstanceId(_ interaction: Interaction) -> String {
        if !interaction.instanceId.isEmpty { return interaction.instanceId }
        return interaction.searchPhase == .beforeSearch ? "bs_product" : "product"
    }
}

/// Writes interactions as Reteno recommendation events:
/// `{"events":[{"recomVariantId":"r1107v1482","impressions":[{"occurred":"2024-05-01T12:34:56Z","productId":"240-LV09"}],"clicks":[…]}]}`.
///
/// Events are grouped by variant (one element per `recomVariantId`, in order of first appearance);
/// an empty list is left out; `occurred` is ISO 8601 UTC with whole seconds and `Z`. The tracker's
/// event id is added to each impression or click as `eventId` (turn off with `includeEventIds: false`).
/// Keys are written in sorted order, as ``JSONWriter`` writes them.
enum RetenoOracle {
    /// The body for a batch.
    static func body(_ events: [TrackedEvent], includeEventIds: Bool = true) -> Data {
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
