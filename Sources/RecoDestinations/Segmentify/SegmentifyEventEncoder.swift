import Foundation
import RecoHTTP
import RecoKit
import RecoTracking
import RecoVendors

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
enum SegmentifyEventEncoder {
    /// The batch body written straight from the stored records, in one pass into one buffer, keys in
    /// sorted order (as ``JSONWriter`` writes an object).
    ///
    /// Interactions are copied field by field from the records' bytes; only a context's `params` (parsed
    /// to merge `eventId` in key order) and a vendor event (its fields are a JSON object to merge) go
    /// through values.
    ///
    /// The impressions of one page record that name the same block differ only in their event ids: the
    /// first one's object is written field by field, the others copy its bytes around their own ids.
    static func body(records: [EventRecord], includeEventIds: Bool = true) -> Data {
        var body = BodyWriter(capacity: 2 + records.reduce(0) { $0 + $1.ownByteCount + 160 })
        body.append(byte: UInt8(ascii: "["))
        do {
            var template: Template?
            for index in records.indices {
                if let shared = template, records[index].isImpression(ofSameBlockAs: records[shared.record]) {
                    let sequence = records[index].id.sequence
                    body.write(room: shared.end - shared.start + 64) { cursor in
                        cursor.append(byte: UInt8(ascii: ","))
                        if includeEventIds {
                            // One page record, one run: its 16 hex digits and the dash are the template's.
                            cursor.appendWritten(shared.start..<(shared.idStart + 17))
                            cursor.appendDecimal(sequence)
                        } else {
                            cursor.appendWritten(shared.start..<shared.idStart)
                        }
                        cursor.appendWritten(shared.idEnd..<shared.end)
                    }
                    continue
                }
                let written = write(records[index], includeEventId: includeEventIds, first: index == 0, to: &body)
                template = written.map { Template(record: index, start: $0.start, idStart: $0.idStart, idEnd: $0.idEnd, end: $0.end) }
            }
        }
        body.append(byte: UInt8(ascii: "]"))
        return body.finish()
    }

    /// Where a page impression's object lies in the body (offsets), split around its event id (an empty
    /// range there when ids are left out), for the next impressions of the same page and block to copy.
    struct Template {
        /// The index of the record written.
        var record: Int
        var start: Int, idStart: Int, idEnd: Int, end: Int
    }

    /// Writes one record's object, keys in sorted order (as ``write(_:includeEventId:to:)`` does); for an
    /// impression without params, where its object lies (after the comma) and where its id does.
    @discardableResult @inline(__always) // one caller: inlined, its calls on the record cost less
    static func write(_ record: borrowing EventRecord, includeEventId: Bool, first isFirst: Bool,
                      to body: inout BodyWriter) -> (start: Int, idStart: Int, idEnd: Int, end: Int)? {
        if record.kind == .vendorEvent {
            if !isFirst { body.append(byte: UInt8(ascii: ",")) }
            // EventRecord read the vendor event already; it decodes.
            guard let event = try? record.event(), let vendorEvent = event.interaction.vendorEvent else { return nil }
            var text = ""
            JSONWriter.write(SegmentifyEventJSON.object(vendorEvent, context: event.interaction.context,
                                                        eventId: includeEventId ? event.id.description : nil), to: &text)
            body.append(text: text)
            return nil
        }
        // Params are rare and free-form: merged through values so the keys keep JSONWriter's order.
        let hasParams = record.range(.params) != nil
        let params = hasParams ? paramsText(of: record, includeEventId: includeEventId) : nil
        let faceted = record.kind == .click && isFacetedSearch(record)
        var start = 0, idStart = 0, idEnd = 0
        // What the object needs of the record, read before the closures: a closure that captured the
        // record (borrowed from the caller's array) would copy it, retaining its bytes, at every record.
        let kind = record.kind, id = record.id, testMode = record.testMode, searchPhase = record.searchPhase
        let room = BodyWriter.room(for: record, extra: 512 + (params?.utf8.count ?? 0))
        record.withFields { fields in
            body.write(room: room) { cursor in
                if !isFirst { cursor.append(byte: UInt8(ascii: ",")) }
                start = cursor.offset
                // Every key is written with the comma before it; the object's first comma becomes its brace.
                cursor.appendMember(",\"currency\":\"", .currency, of: fields)
                cursor.appendMember(",\"device\":\"", .device, of: fields)
                if kind == .searchClick, fields[.instanceId]?.isEmpty ?? true {
                    cursor.append(searchPhase == .beforeSearch ? ",\"instanceId\":\"bs_product\"" : ",\"instanceId\":\"product\"")
                } else {
                    cursor.appendMember(",\"instanceId\":\"", .instanceId, of: fields, always: true)
                }
                switch kind {
                case .impression, .widgetView:
                    cursor.appendMember(",\"interactionId\":\"", .interactionId, of: fields, always: true)
                case _ where faceted:
                    cursor.append(",\"interactionId\":\"")
                    cursor.appendEscaped(.productId, of: fields)
                    cursor.append("|product\"")
                default:
                    cursor.appendMember(",\"interactionId\":\"", .productId, of: fields, always: true)
                }
                cursor.appendMember(",\"lang\":\"", .lang, of: fields)
                cursor.append(",\"name\":\"INTERACTION\"")
                cursor.appendMember(",\"os\":\"", .os, of: fields)
                cursor.appendMember(",\"pageUrl\":\"", .pageUrl, of: fields)
                if var params {
                    cursor.append(",\"params\":")
                    params.withUTF8 { cursor.append($0) }
                } else if !hasParams, includeEventId {
                    cursor.append(",\"params\":{\"eventId\":\"")
                    idStart = cursor.offset
                    cursor.append(id)
                    idEnd = cursor.offset
                    cursor.append("\"}")
                }
                cursor.appendMember(",\"region\":\"", .region, of: fields)
                cursor.appendMember(",\"sessionId\":\"", .sessionId, of: fields)
                if let testMode = testMode { cursor.append(testMode ? ",\"testMode\":true" : ",\"testMode\":false") }
                switch kind {
                case .impression: cursor.append(",\"type\":\"impression\"")
                case .widgetView: cursor.append(",\"type\":\"widget-view\"")
                default: cursor.append(",\"type\":\"click\"")
                }
                cursor.appendMember(",\"userId\":\"", .userId, of: fields)
                cursor.append(byte: UInt8(ascii: "}"))
                cursor.replace(at: start, with: UInt8(ascii: "{"))
            }
        }
        guard kind == .impression, !hasParams else { return nil }
        let end = body.count
        // Without an id, the whole object is shared.
        return includeEventId ? (start, idStart, idEnd, end) : (start, end, end, end)
    }

    /// Whether the block's `instanceId` starts with `fcs_` as `String.hasPrefix` sees it (a combining
    /// mark right after the prefix makes another character of its `_`).
    private static func isFacetedSearch(_ record: EventRecord) -> Bool {
        record.withFields { fields in
            guard let instanceId = fields[.instanceId], BodyWriter.bytes(instanceId, havePrefix: "fcs_") else { return false }
            if instanceId.count > 4, instanceId[4] >= 0x80 { return record.string(.instanceId)?.hasPrefix("fcs_") ?? false }
            return true
        }
    }

    /// The params object of a record that holds params: its own, with `eventId` merged in; nil when empty.
    private static func paramsText(of record: EventRecord, includeEventId: Bool) -> String? {
        var params = (try? JSONValue(parsing: record.string(.params) ?? ""))?.objectValue ?? [:]
        if includeEventId { params["eventId"] = .string(record.id.description) }
        guard !params.isEmpty else { return nil }
        var text = ""
        JSONWriter.write(.object(params), to: &text)
        return text
    }
}
