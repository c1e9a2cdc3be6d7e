import Foundation
import RecoTracking

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
public enum SegmentifyEventEncoder {
    /// The event as a JSON object.
    public static func event(_ event: TrackedEvent, includeEventId: Bool = true) -> JSONValue {
        object(event.interaction, eventId: includeEventId ? event.id : nil)
    }

    /// The object of one interaction or vendor event, with `eventId` in `params` when given.
    static func object(_ interaction: Interaction, eventId: EventID?) -> JSONValue {
        let context = interaction.context
        if let vendorEvent = interaction.vendorEvent { return object(vendorEvent, context: context, eventId: eventId) }
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
        addCommon(context, eventId: eventId, to: &fields)
        return .object(fields)
    }

    /// A vendor event: its name, the common fields, then its own fields (its `params` merged after the context's).
    static func object(_ event: VendorEvent, context: InteractionContext, eventId: EventID?) -> JSONValue {
        var fields = event.fields
        fields["name"] = .string(event.name)
        let ownParams = event.fields["params"]?.objectValue ?? [:]
        fields["params"] = nil
        var merged = context
        merged.params.merge(ownParams) { _, own in own }
        addCommon(merged, eventId: eventId, to: &fields)
        return .object(fields)
    }

    private static func addCommon(_ context: InteractionContext, eventId: EventID?, to fields: inout [String: JSONValue]) {
        let optional: [(String, String?)] = [("userId", context.userId), ("sessionId", context.sessionId), ("lang", context.lang),
                                             ("currency", context.currency), ("pageUrl", context.pageUrl), ("region", context.region),
                                             ("os", context.os), ("device", context.device)]
        for (key, value) in optional { if let value { fields[key] = .string(value) } }
        if let testMode = context.testMode { fields["testMode"] = .bool(testMode) }
        var params = context.params
        if let eventId { params["eventId"] = .string(eventId.description) }
        if !params.isEmpty { fields["params"] = .object(params) }
    }

    /// A batch as the JSON array Segmentify's events endpoint takes: the same text as writing each
    /// ``event(_:includeEventId:)`` with sorted keys, written directly (no intermediate values).
    public static func body(_ events: [TrackedEvent], includeEventIds: Bool = true) -> Data {
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
