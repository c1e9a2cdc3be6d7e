import Foundation
import FuzzSupport
import RecoDestinations
import RecoKit
import RecoTracking

/// One journal record's payload from outside: bytes in a frame whose checksum holds but that this
/// version of RecoKit did not write (an older or newer one, a tool, damage the CRC-32 missed, a hand-made
/// file). The sender reads it into events (`EventRecord.read`: an event's record, or a page's
/// impressions) and the destinations write batches from those records (`request(for:)`, whose record
/// encoders write through pointers, into room computed ahead); a wrong length or room is a heap overflow,
/// which the address sanitizer reports.
///
/// Promises checked:
/// 1. Reading throws, adding no record, or adds at least one; every record added gives its event
///    (`event()`): what the record check accepts, decoding accepts.
/// 2. Segmentify's and Reteno's bodies written from the records are byte for byte the bodies written from
///    the same events' own records as this version writes them (`EventRecord(event)`): the records read
///    from the input may be laid out otherwise (a page's impressions share its context and are copied
///    from the first impression's object; a record this version did not write), the bodies may not differ.
///    Event ids are included for an input of even length, left out for odd.
/// 3. Each body parses as JSON, with one event object per record (Segmentify: the batch's array;
///    Reteno: the clicks and impressions of its variants), and with ids, the records' ids in order
///    (Segmentify's `params.eventId`) or as a whole (Reteno's `eventId`, grouped by variant).
/// Where a record's text is not valid UTF-8, the encoders copy its bytes while the event holds repaired
/// text, so 2 and 3 are checked only for valid text (such a batch, refused by the vendor, is bisected
/// down to that event and dead-lettered, not lost).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventRecords(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let payload = Array(FuzzInput(pointer, size).data)[...]
    var records: [EventRecord] = []
    do {
        try EventRecord.read(payload, into: &records)
    } catch {
        fuzzCheck(records.isEmpty, "reading threw (\(error)) but added \(records.count) records")
        return 0
    }
    fuzzCheck(!records.isEmpty, "reading neither threw nor added a record")
    var events: [TrackedEvent] = []
    for record in records {
        do {
            events.append(try record.event())
        } catch {
            fuzzCheck(false, "a record that reads gives no event: \(error)")
        }
    }
    let includeEventIds = size % 2 == 0
    let segmentify = SegmentifyDestination(dataCenter: URL(string: "https://gandalf.example")!, apiKey: "k", origin: "shop.example",
                                           includeEventIds: includeEventIds)
    let reteno = RetenoDestination(accessKey: "k", includeEventIds: includeEventIds)
    let segmentifyBody = segmentify.request(for: records).body
    let retenoBody = reteno.request(for: records).body
    guard records.allSatisfy(hasValidText) else { return 0 }
    let ownRecords = events.map(EventRecord.init)
    let segmentifyFromOwn = segmentify.request(for: ownRecords).body
    fuzzCheck(segmentifyBody == segmentifyFromOwn,
              "Segmentify from the records read: \(text(segmentifyBody))\nfrom the events' own records: \(text(segmentifyFromOwn))")
    let retenoFromOwn = reteno.request(for: ownRecords).body
    fuzzCheck(retenoBody == retenoFromOwn,
              "Reteno from the records read: \(text(retenoBody))\nfrom the events' own records: \(text(retenoFromOwn))")
    let ids = records.map(\.id.description)
    checkSegmentify(segmentifyBody, ids: ids, includeEventIds: includeEventIds)
    checkReteno(retenoBody, ids: ids, includeEventIds: includeEventIds)
    return 0
}

/// A body's JSON: a record's vendor event may nest as deep as the parser's default allows, and the body
/// adds two levels around it.
private func parse(_ body: Data, _ vendor: String) -> JSONValue? {
    do {
        return try JSONValue(parsing: body, limits: JSONLimits(maximumDepth: 600))
    } catch {
        fuzzCheck(false, "\(vendor)'s body is not JSON (\(error)): \(text(body))")
        return nil
    }
}

/// Segmentify's body: an array of one object per record, in order, each with the record's id in
/// `params.eventId` when ids are included.
private func checkSegmentify(_ body: Data, ids: [String], includeEventIds: Bool) {
    guard let json = parse(body, "Segmentify") else { return }
    guard let objects = json.arrayValue else { return fuzzCheck(false, "Segmentify's body is not an array: \(text(body))") }
    fuzzCheck(objects.count == ids.count && objects.allSatisfy { $0.objectValue != nil },
              "Segmentify's body holds \(objects.count) values for \(ids.count) records: \(text(body))")
    guard includeEventIds else { return }
    let written = objects.map { $0["params"]?["eventId"]?.stringValue ?? "none" }
    fuzzCheck(written == ids, "Segmentify's body carries the ids \(written), the records' are \(ids): \(text(body))")
}

/// Reteno's body: `{"events":[…]}`, one element per variant, whose clicks and impressions hold one
/// object per record, each with the record's id in `eventId` when ids are included.
private func checkReteno(_ body: Data, ids: [String], includeEventIds: Bool) {
    guard let json = parse(body, "Reteno") else { return }
    guard let variants = json["events"]?.arrayValue else { return fuzzCheck(false, "Reteno's body has no events array: \(text(body))") }
    var objects: [JSONValue] = []
    for variant in variants {
        fuzzCheck(variant["recomVariantId"]?.stringValue != nil, "a Reteno variant without its recomVariantId: \(text(body))")
        for list in ["clicks", "impressions"] { objects += variant[list]?.arrayValue ?? [] }
    }
    fuzzCheck(objects.count == ids.count, "Reteno's body holds \(objects.count) clicks and impressions for \(ids.count) records: \(text(body))")
    guard includeEventIds else { return }
    let written = objects.map { $0["eventId"]?.stringValue ?? "none" }
    fuzzCheck(written.sorted() == ids.sorted(), "Reteno's body carries the ids \(written), the records' are \(ids): \(text(body))")
}

/// Whether every text field of the record is valid UTF-8 (reads back as the same bytes from a `String`).
private func hasValidText(_ record: EventRecord) -> Bool {
    record.withFields { fields in
        EventRecord.Field.allCases.allSatisfy { field in
            guard let bytes = fields[field] else { return true }
            return String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
        }
    }
}

private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self).debugDescription }
