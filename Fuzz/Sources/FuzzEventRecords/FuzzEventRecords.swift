import Foundation
import FuzzSupport
import RecoKit
import RecoTracking
import RecoVendors

/// One journal record's payload from outside: bytes in a frame whose checksum holds but that this
/// version of RecoKit did not write (an older or newer one, a tool, damage the CRC-32 missed, a hand-made
/// file). The sender reads it into events (`EventRecord.read`: an event's record, or a page's
/// impressions) and the vendors' record encoders write batches from those records through pointers,
/// into room computed ahead; a wrong length or room is a heap overflow, which the address sanitizer reports.
///
/// Promises checked:
/// 1. Reading throws, adding no record, or adds at least one; every record added gives its event
///    (`event()`): what the record check accepts, decoding accepts.
/// 2. Segmentify's and Reteno's bodies written from the records are byte for byte the bodies their value
///    encoders write for the decoded events (event ids included for an input of even length, left out
///    for odd). Where a record's text is not valid UTF-8, the record encoders copy its bytes while the
///    events hold repaired text, so the bodies are compared only for valid text (such a batch, refused
///    by the vendor, is bisected down to that event and dead-lettered, not lost).
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
    let segmentify = SegmentifyEventEncoder.body(records: records, includeEventIds: includeEventIds)
    let reteno = RetenoEventEncoder.body(records: records, includeEventIds: includeEventIds)
    guard records.allSatisfy(hasValidText) else { return 0 }
    let segmentifyFromEvents = SegmentifyEventEncoder.body(events, includeEventIds: includeEventIds)
    fuzzCheck(segmentify == segmentifyFromEvents,
              "Segmentify from records: \(text(segmentify))\nfrom events:  \(text(segmentifyFromEvents))")
    let retenoFromEvents = RetenoEventEncoder.body(events, includeEventIds: includeEventIds)
    fuzzCheck(reteno == retenoFromEvents, "Reteno from records: \(text(reteno))\nfrom events:  \(text(retenoFromEvents))")
    return 0
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
