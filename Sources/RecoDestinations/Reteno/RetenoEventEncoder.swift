import Foundation
import RecoHTTP
import RecoKit
import RecoTracking

/// Writes interactions as Reteno recommendation events:
/// `{"events":[{"recomVariantId":"r1107v1482","impressions":[{"occurred":"2024-05-01T12:34:56Z","productId":"240-LV09"}],"clicks":[…]}]}`.
///
/// Events are grouped by variant (one element per `recomVariantId`, in order of first appearance);
/// an empty list is left out; `occurred` is ISO 8601 UTC with whole seconds and `Z`. The tracker's
/// event id is added to each impression or click as `eventId` (turn off with `includeEventIds: false`).
/// Keys are written in sorted order, as ``JSONWriter`` writes them.
enum RetenoEventEncoder {
    /// The batch body written straight from the stored records into one buffer (grouped by variant in
    /// order of first appearance, clicks before impressions).
    static func body(records: [EventRecord], includeEventIds: Bool = true) -> Data {
        // Group by variant: each group's first record and its members' indices in `records`.
        var groups: [(first: Int, clicks: [Int], impressions: [Int])] = []
        var last = -1
        for index in records.indices {
            var group = last
            if group < 0 || !sameVariant(records, groups[group].first, index) {
                group = groups.firstIndex { sameVariant(records, $0.first, index) } ?? -1
                if group < 0 {
                    groups.append((index, [], []))
                    group = groups.count - 1
                }
            }
            if records[index].kind == .click { groups[group].clicks.append(index) } else { groups[group].impressions.append(index) }
            last = group
        }
        var body = BodyWriter(capacity: 32 + records.reduce(0) { $0 + ($1.range(.productId)?.count ?? 0) + (includeEventIds ? 100 : 64) })
        body.append("{\"events\":[")
        var time: WrittenTime?
        for (number, group) in groups.enumerated() {
            body.append(byte: UInt8(ascii: number == 0 ? "{" : ","))
            if number > 0 { body.append(byte: UInt8(ascii: "{")) }
            if !group.clicks.isEmpty {
                write(group.clicks, of: records, as: "\"clicks\":[", includeEventIds: includeEventIds, time: &time, to: &body)
                body.append(byte: UInt8(ascii: ","))
            }
            if !group.impressions.isEmpty {
                write(group.impressions, of: records, as: "\"impressions\":[", includeEventIds: includeEventIds, time: &time, to: &body)
                body.append(byte: UInt8(ascii: ","))
            }
            let first = group.first
            body.write(room: BodyWriter.room(for: records[first])) { cursor in
                records[first].withFields { cursor.appendMember("\"recomVariantId\":\"", .instanceId, of: $0, always: true) }
                cursor.append(byte: UInt8(ascii: "}"))
            }
        }
        body.append("]}")
        return body.finish()
    }

    /// The last time written: its milliseconds and where its text lies in the body. The impressions of a
    /// page share one time, so its text is written once and copied.
    private struct WrittenTime {
        var milliseconds: Int64
        var text: Range<Int>
    }

    /// `"clicks":[{"eventId":…,"occurred":…,"productId":…},…]`
    private static func write(_ indices: [Int], of records: [EventRecord], as opening: StaticString, includeEventIds: Bool,
                              time: inout WrittenTime?, to body: inout BodyWriter) {
        body.append(opening)
        for (number, index) in indices.enumerated() {
            let milliseconds = records[index].occurredMilliseconds
            body.write(room: BodyWriter.room(for: records[index])) { cursor in
                cursor.append(number == 0 ? "{" : ",{")
                if includeEventIds {
                    cursor.append("\"eventId\":\"")
                    cursor.append(records[index].id)
                    cursor.append("\",")
                }
                cursor.append("\"occurred\":\"")
                if let last = time, last.milliseconds == milliseconds {
                    cursor.appendWritten(last.text)
                } else {
                    let start = cursor.offset
                    cursor.appendISO8601(milliseconds: milliseconds)
                    time = WrittenTime(milliseconds: milliseconds, text: start..<cursor.offset)
                }
                records[index].withFields { cursor.appendMember("\",\"productId\":\"", .productId, of: $0, always: true) }
                cursor.append(byte: UInt8(ascii: "}"))
            }
        }
        body.append(byte: UInt8(ascii: "]"))
    }

    /// Whether two records name the same variant as `String` equality sees it (byte for byte, or, with
    /// non-ASCII text, canonically equivalent).
    private static func sameVariant(_ records: [EventRecord], _ one: Int, _ other: Int) -> Bool {
        let same = records[one].withFields { first in
            records[other].withFields { second -> Bool? in
                let left = first[.instanceId] ?? UnsafeBufferPointer(start: nil, count: 0)
                let right = second[.instanceId] ?? UnsafeBufferPointer(start: nil, count: 0)
                if left.count == right.count, left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 { return true }
                // Differently written non-ASCII text may still be the same String.
                return left.contains { $0 >= 0x80 } || right.contains { $0 >= 0x80 } ? nil : false
            }
        }
        return same ?? ((records[one].string(.instanceId) ?? "") == (records[other].string(.instanceId) ?? ""))
    }
}
