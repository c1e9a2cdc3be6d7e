import Foundation
import RecoKit
import RecoTracking

extension SegmentifyEventEncoder {
    /// The batch body written straight from journaled records, in one pass into one buffer: the same
    /// bytes as ``body(_:includeEventIds:)`` writes for the decoded events.
    ///
    /// Interactions are copied field by field from the records' bytes; only a context's `params` (parsed
    /// to merge `eventId` in key order) and a vendor event (its fields are a JSON object to merge) go
    /// through values.
    ///
    /// The impressions of one page record that name the same block differ only in their event ids: the
    /// first one's object is written field by field, the others copy its bytes around their own ids.
    public static func body(records: [EventRecord], includeEventIds: Bool = true) -> Data {
        var body = BodyWriter(capacity: 2 + records.reduce(0) { $0 + $1.ownByteCount + 160 })
        body.append(byte: UInt8(ascii: "["))
        // Records are read in place (not copied out of the array) one after the other.
        records.withUnsafeBufferPointer { records in
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
            guard let event = try? record.event() else { return nil }
            var text = ""
            write(event, includeEventId: includeEventId, to: &text)
            body.append(text: text)
            return nil
        }
        // Params are rare and free-form: merged through values so the keys keep JSONWriter's order.
        let params = record.range(.params) == nil ? nil : paramsText(of: record, includeEventId: includeEventId)
        let faceted = record.kind == .click && isFacetedSearch(record)
        var start = 0, idStart = 0, idEnd = 0
        body.write(room: BodyWriter.room(for: record, extra: 512 + (params?.utf8.count ?? 0))) { cursor in
            if !isFirst { cursor.append(byte: UInt8(ascii: ",")) }
            start = cursor.offset
            record.withFields { fields in
                var first = true
                func key(_ name: StaticString) {
                    cursor.append(byte: UInt8(ascii: first ? "{" : ","))
                    first = false
                    cursor.append(name)
                }
                func field(_ name: StaticString, _ field: EventRecord.Field) {
                    guard let value = fields[field] else { return }
                    key(name)
                    cursor.appendJSONString(value)
                }
                field("\"currency\":", .currency)
                field("\"device\":", .device)
                key("\"instanceId\":")
                if record.kind == .searchClick, fields[.instanceId]?.isEmpty ?? true {
                    cursor.append(record.searchPhase == .beforeSearch ? "\"bs_product\"" : "\"product\"")
                } else {
                    cursor.appendJSONString(fields[.instanceId])
                }
                key("\"interactionId\":")
                switch record.kind {
                case .impression, .widgetView:
                    cursor.appendJSONString(fields[.interactionId])
                case _ where faceted:
                    cursor.append(byte: UInt8(ascii: "\""))
                    if let productId = fields[.productId] { cursor.appendEscaped(productId) }
                    cursor.append("|product\"")
                default:
                    cursor.appendJSONString(fields[.productId])
                }
                field("\"lang\":", .lang)
                cursor.append(",\"name\":\"INTERACTION\"")
                field("\"os\":", .os)
                field("\"pageUrl\":", .pageUrl)
                if var params {
                    cursor.append(",\"params\":")
                    params.withUTF8 { cursor.append($0) }
                } else if params == nil, fields[.params] == nil, includeEventId {
                    cursor.append(",\"params\":{\"eventId\":\"")
                    idStart = cursor.offset
                    cursor.append(record.id)
                    idEnd = cursor.offset
                    cursor.append("\"}")
                }
                field("\"region\":", .region)
                field("\"sessionId\":", .sessionId)
                if let testMode = record.testMode { cursor.append(testMode ? ",\"testMode\":true" : ",\"testMode\":false") }
                switch record.kind {
                case .impression: cursor.append(",\"type\":\"impression\"")
                case .widgetView: cursor.append(",\"type\":\"widget-view\"")
                default: cursor.append(",\"type\":\"click\"")
                }
                field("\"userId\":", .userId)
                cursor.append(byte: UInt8(ascii: "}"))
            }
        }
        guard record.kind == .impression, params == nil, record.range(.params) == nil else { return nil }
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
