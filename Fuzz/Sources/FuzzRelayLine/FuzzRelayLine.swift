import Foundation
import FuzzSupport
import RecoDestinations
import RecoKit
import RecoTracking

private let now = Date(timeIntervalSince1970: 1_790_000_000)
private let segmentify = SegmentifyDestination(dataCenter: URL(string: "https://gandalf.segmentify.com")!, apiKey: "k", origin: "shop.example")
private let reteno = RetenoDestination(accessKey: "k")

/// One line of `recokit relay`'s input, read as the relay reads it (RecoRelay's `RelayLine`): an
/// interaction line (`Interaction(jsonLine:now:)`), a Segmentify event object, or an array of them
/// (`SegmentifyEventReader`). Each object is also tried by the other reader. Every outcome is an
/// interaction or an error naming the field.
///
/// An interaction read is then taken where the relay takes it: checked as a tracker checks it
/// (`checkShape`, then each destination's `validate`), and, where a destination accepts it, written as
/// the journal's record, read back into the event, and written into that vendor's batch body from the
/// record (`request(for:)`). Promises checked: no step traps (a time or number no record holds must be
/// refused by the check, as `"occurred": 9223372036854775807` was not, and crashed the relay); the event
/// read back writes the same record; the body parses as JSON and says what the interaction says: the
/// event's id, and each text the line gave, escaped and read back as the same text (Segmentify: the
/// context's fields, the block's and product's ids as its rules place them, a vendor event's name;
/// Reteno: the variant, the product).
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
        checkSegmentify(segmentify.request(for: [record]).body, of: interaction, id: id)
    }
    if (try? reteno.validate(interaction)) != nil {
        checkReteno(reteno.request(for: [record]).body, of: interaction, id: id)
    }
}

/// A body's JSON (a vendor event may nest as deep as the line's parser allowed; the body adds two levels).
private func parse(_ body: Data, _ vendor: String) -> JSONValue? {
    do {
        return try JSONValue(parsing: body, limits: JSONLimits(maximumDepth: 600))
    } catch {
        fuzzCheck(false, "\(vendor)'s body is not JSON (\(error)): \(text(body))")
        return nil
    }
}

/// Segmentify's body: `[object]`, the object holding the context's fields that are set, the event id in
/// `params.eventId`, and, for an interaction, its type and ids as the encoder's rules place them.
private func checkSegmentify(_ body: Data, of interaction: Interaction, id: EventID) {
    guard let json = parse(body, "Segmentify") else { return }
    guard let objects = json.arrayValue, objects.count == 1, let object = objects.first, object.objectValue != nil else {
        return fuzzCheck(false, "Segmentify's body for one event is not an array of one object: \(text(body))")
    }
    var expected: [(String, String)] = [("eventId", id.description)]
    let context = interaction.context
    let common: [(String, String?)] = [("userId", context.userId), ("sessionId", context.sessionId), ("lang", context.lang),
                                       ("currency", context.currency), ("pageUrl", context.pageUrl), ("region", context.region),
                                       ("os", context.os), ("device", context.device)]
    for (key, value) in common { if let value { expected.append((key, value)) } }
    let productId = interaction.productId ?? ""
    switch interaction.kind {
    case .vendorEvent:
        if let vendorEvent = interaction.vendorEvent { expected.append(("name", vendorEvent.name)) }
    case .impression, .widgetView:
        expected += [("name", "INTERACTION"), ("type", interaction.kind == .impression ? "impression" : "widget-view"),
                     ("instanceId", interaction.instanceId), ("interactionId", interaction.interactionId)]
    case .click:
        expected += [("name", "INTERACTION"), ("type", "click"), ("instanceId", interaction.instanceId),
                     ("interactionId", interaction.instanceId.hasPrefix("fcs_") ? productId + "|product" : productId)]
    case .searchClick:
        let instanceId = !interaction.instanceId.isEmpty ? interaction.instanceId
            : interaction.searchPhase == .beforeSearch ? "bs_product" : "product"
        expected += [("name", "INTERACTION"), ("type", "click"), ("instanceId", instanceId), ("interactionId", productId)]
    }
    for (key, value) in expected {
        let written = key == "eventId" ? object["params"]?["eventId"] : object[key]
        fuzzCheck(written?.stringValue == value, "Segmentify's \(key) is \(written.map { "\($0)" } ?? "missing"), not \(value.debugDescription): \(text(body))")
    }
}

/// Reteno's body: `{"events":[{"recomVariantId":…,"clicks"|"impressions":[{"eventId":…,"productId":…,…}]}]}`.
private func checkReteno(_ body: Data, of interaction: Interaction, id: EventID) {
    guard let json = parse(body, "Reteno") else { return }
    let list = interaction.kind == .click ? "clicks" : "impressions"
    guard let variants = json["events"]?.arrayValue, variants.count == 1, let variant = variants.first,
          let events = variant[list]?.arrayValue, events.count == 1, let event = events.first else {
        return fuzzCheck(false, "Reteno's body for one \(interaction.kind.rawValue) is not one variant with one of its \(list): \(text(body))")
    }
    for (key, written, value) in [("recomVariantId", variant["recomVariantId"], interaction.instanceId),
                                  ("eventId", event["eventId"], id.description), ("productId", event["productId"], interaction.productId ?? "")] {
        fuzzCheck(written?.stringValue == value, "Reteno's \(key) is \(written.map { "\($0)" } ?? "missing"), not \(value.debugDescription): \(text(body))")
    }
}

private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self).debugDescription }
