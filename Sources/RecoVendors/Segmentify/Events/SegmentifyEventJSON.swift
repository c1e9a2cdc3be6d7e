import RecoKit

/// The JSON object of one of Segmentify's own events as its events endpoint takes it: the event's `name`,
/// the context's common fields, then the event's own fields, its `params` merged after the context's.
/// One place for the shape, used by ``SegmentifyEvent/json()`` (a recommendations request's events) and
/// by the tracking destination (a batch's vendor events).
package enum SegmentifyEventJSON {
    /// The object of `event` sent with `context`; `eventId`, when given, goes into `params.eventId`.
    package static func object(_ event: VendorEvent, context: InteractionContext, eventId: String?) -> JSONValue {
        var fields = event.fields
        fields["name"] = .string(event.name)
        let ownParams = event.fields["params"]?.objectValue ?? [:]
        fields["params"] = nil
        var merged = context
        merged.params.merge(ownParams) { _, own in own }
        addCommon(merged, eventId: eventId, to: &fields)
        return .object(fields)
    }

    /// The common fields a context sets (`userId`, `sessionId`, `lang`, `currency`, `pageUrl`, `region`, `os`,
    /// `device`, `testMode`), and its `params` with `eventId` merged in.
    package static func addCommon(_ context: InteractionContext, eventId: String?, to fields: inout [String: JSONValue]) {
        let optional: [(String, String?)] = [("userId", context.userId), ("sessionId", context.sessionId), ("lang", context.lang),
                                             ("currency", context.currency), ("pageUrl", context.pageUrl), ("region", context.region),
                                             ("os", context.os), ("device", context.device)]
        for (key, value) in optional { if let value { fields[key] = .string(value) } }
        if let testMode = context.testMode { fields["testMode"] = .bool(testMode) }
        var params = context.params
        if let eventId { params["eventId"] = .string(eventId) }
        if !params.isEmpty { fields["params"] = .object(params) }
    }
}
