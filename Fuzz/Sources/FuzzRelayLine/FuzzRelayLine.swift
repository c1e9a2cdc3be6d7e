import Foundation
import FuzzSupport
import RecoKit
import RecoTracking
import RecoVendors

private let now = Date(timeIntervalSince1970: 1_790_000_000)
private let segmentify = SegmentifyDestination(dataCenter: URL(string: "https://gandalf.segmentify.com")!, apiKey: "k", origin: "shop.example")
private let reteno = RetenoDestination(accessKey: "k")

/// One line of `recokit relay`'s input, read as the relay reads it (RecoKitCLI's `RelayLine`): an
/// interaction line (`Interaction(jsonLine:now:)`), a Segmentify event object, or an array of them
/// (`SegmentifyEventReader`). Each object is also tried by the other reader. Every outcome is an
/// interaction or an error naming the field.
///
/// An interaction read is then taken where the relay takes it: checked as a tracker checks it
/// (`checkShape`, then each destination's `validate`), and, where a destination accepts it, written as
/// the journal's record, read back into the event, and written into that vendor's batch body from the
/// record. Promises checked: no step traps (a time or number no record holds must be refused by the
/// check, as `"occurred": 9223372036854775807` was not, and crashed the relay); the event read back
/// writes the same record; the body from the record is the body the value encoder writes for the event
/// read back (for valid UTF-8 text, which a line's text always is).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRelayLine(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let line = FuzzInput(pointer, size).text
    guard let json = try? JSONValue(parsing: line) else { return 0 }
    let objects = json.arrayValue ?? [json]
    for object in objects {
        if let interaction = try? SegmentifyEventReader.interaction(from: object, occurred: now) { journal(interaction) }
        if let interaction = try? Interaction(jsonLine: object, now: now) { journal(interaction) }
    }
    return 0
}

/// Checks the interaction as a tracker does, and for each destination that accepts it goes on as the
/// tracker and its sender do.
private func journal(_ interaction: Interaction) {
    _ = "\(interaction)"
    guard (try? interaction.checkShape()) != nil else { return }
    let id = EventID(run: 0x3F9A_1C2B_7D4E_5F60, sequence: 7)
    let record = EventRecord(TrackedEvent(id: id, interaction: interaction))
    let event: TrackedEvent
    do {
        event = try record.event()
    } catch {
        fuzzCheck(false, "the record of a checked interaction reads back as no event: \(error)")
        return
    }
    fuzzCheck(EventRecord(event).bytes.elementsEqual(record.bytes), "the event read back writes another record")
    if (try? segmentify.validate(interaction)) != nil {
        let fromRecords = SegmentifyEventEncoder.body(records: [record])
        let fromEvents = SegmentifyEventEncoder.body([event])
        fuzzCheck(fromRecords == fromEvents, "Segmentify from the record: \(text(fromRecords))\nfrom the event: \(text(fromEvents))")
    }
    if (try? reteno.validate(interaction)) != nil {
        let fromRecords = RetenoEventEncoder.body(records: [record])
        let fromEvents = RetenoEventEncoder.body([event])
        fuzzCheck(fromRecords == fromEvents, "Reteno from the record: \(text(fromRecords))\nfrom the event: \(text(fromEvents))")
    }
}

private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
