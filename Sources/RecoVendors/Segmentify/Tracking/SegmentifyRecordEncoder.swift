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
    public static func body(records: [EventRecord], includeEventIds: Bool = true) -> Data {
        var body = BodyWriter(capacity: 2 + records.reduce(0) { $0 + $1.bytes.count + 96 })
        body.append(byte: UInt8(ascii: "["))
        for (index, record) in records.enumerated() {
            if index > 0 { body.append(byte: UInt8(ascii: ",")) }
            write(record, includeEventId: includeEventIds, to: &body)
        }
        body.append(byte: UInt8(ascii: "]"))
        return body.data
    }

    /// Writes one record's object, keys in sorted order (as ``write(_:includeEventId:to:)`` does).
    static func write(_ record: EventRecord, includeEventId: Bool, to body: inout BodyWriter) {
        if record.kind == .vendorEvent {
            // EventRecord read the vendor event already; it decodes.
            guard let event = try? record.event() else { return }
            var text = ""
            write(event, includeEventId: includeEventId, to: &text)
            body.append(contentsOf: text.utf8)
            return
        }
        var first = true
        func key(_ name: StaticString) {
            body.append(byte: UInt8(ascii: first ? "{" : ","))
            first = false
            body.append(name)
        }
        func field(_ name: StaticString, _ range: Range<Int>?) {
            guard let range else { return }
            key(name)
            body.appendJSONString(range, of: record)
        }
        field("\"currency\":", record.currency)
        field("\"device\":", record.device)
        key("\"instanceId\":")
        switch record.kind {
        case .searchClick where record.instanceId?.isEmpty ?? true:
            if record.searchPhase == .beforeSearch { body.append("\"bs_product\"") } else { body.append("\"product\"") }
        default:
            body.appendJSONString(record.instanceId, of: record)
        }
        key("\"interactionId\":")
        switch record.kind {
        case .impression, .widgetView:
            body.appendJSONString(record.interactionId, of: record)
        case .click where isFacetedSearch(record):
            body.append(byte: UInt8(ascii: "\""))
            body.appendEscaped(record.productId, of: record)
            body.append("|product\"")
        default:
            body.appendJSONString(record.productId, of: record)
        }
        field("\"lang\":", record.lang)
        body.append(",\"name\":\"INTERACTION\"")
        field("\"os\":", record.os)
        field("\"pageUrl\":", record.pageUrl)
        writeParams(of: record, includeEventId: includeEventId, to: &body)
        field("\"region\":", record.region)
        field("\"sessionId\":", record.sessionId)
        if let testMode = record.testMode { body.append(testMode ? ",\"testMode\":true" : ",\"testMode\":false") }
        switch record.kind {
        case .impression: body.append(",\"type\":\"impression\"")
        case .widgetView: body.append(",\"type\":\"widget-view\"")
        default: body.append(",\"type\":\"click\"")
        }
        field("\"userId\":", record.userId)
        body.append(byte: UInt8(ascii: "}"))
    }

    /// Whether the block's `instanceId` starts with `fcs_` as `String.hasPrefix` sees it (a combining
    /// mark right after the prefix makes another character of its `_`).
    private static func isFacetedSearch(_ record: EventRecord) -> Bool {
        guard BodyWriter.field(record.instanceId, of: record, hasPrefix: "fcs_"), let range = record.instanceId else { return false }
        if range.count > 4, record.bytes[range.lowerBound + 4] >= 0x80 { return record.string(range)?.hasPrefix("fcs_") ?? false }
        return true
    }

    /// `,"params":{…}`: the context's params with `eventId` merged in, left out when empty.
    private static func writeParams(of record: EventRecord, includeEventId: Bool, to body: inout BodyWriter) {
        guard let range = record.params else {
            guard includeEventId else { return }
            body.append(",\"params\":{\"eventId\":\"")
            body.append(record.id)
            body.append("\"}")
            return
        }
        // Params are rare and free-form: merge through values so the keys stay in JSONWriter's order.
        var params = (try? JSONValue(parsing: record.string(range) ?? ""))?.objectValue ?? [:]
        if includeEventId { params["eventId"] = .string(record.id.description) }
        guard !params.isEmpty else { return }
        body.append(",\"params\":")
        var text = ""
        JSONWriter.write(.object(params), to: &text)
        body.append(contentsOf: text.utf8)
    }
}
