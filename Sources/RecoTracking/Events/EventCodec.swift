import Foundation

/// The journal's binary form of a ``TrackedEvent``: compact and quick to write on the `track` path.
///
/// Layout (version 2): version byte; run and sequence (8 bytes each, little endian); occurred in
/// epoch milliseconds (8 bytes); kind; flags; position (varint); then the strings instanceId,
/// interactionId, productId, userId, sessionId, lang, currency, pageUrl, region, os, device and the
/// params as JSON text, then the vendor event as JSON text (`{"fields":{…},"name":"PAGE_VIEW","vendor":"segmentify"}`),
/// each as a varint of (length + 1) and UTF-8 bytes, 0 meaning absent.
///
/// Version 1 (journals written before vendor events) is the same without the last string; it is still read.
enum EventCodec {
    private static let version: UInt8 = 2
    private static let versionWithoutVendorEvent: UInt8 = 1
    /// The byte each kind is written as: fixed codes, independent of the order of `Interaction.Kind`'s
    /// cases (they are the codes journals have always held: the cases' order when codes were introduced).
    /// A new kind takes a new code; a code is never reused.
    static let kindCodes: [(kind: Interaction.Kind, code: UInt8)] = [
        (.impression, 0), (.widgetView, 1), (.click, 2), (.searchClick, 3), (.vendorEvent, 4),
    ]

    private static func code(of kind: Interaction.Kind) -> UInt8 {
        switch kind {
        case .impression: 0
        case .widgetView: 1
        case .click: 2
        case .searchClick: 3
        case .vendorEvent: 4
        }
    }

    static func kind(code: UInt8) -> Interaction.Kind? {
        switch code {
        case 0: .impression
        case 1: .widgetView
        case 2: .click
        case 3: .searchClick
        case 4: .vendorEvent
        default: nil
        }
    }

    static func encode(_ event: TrackedEvent) -> [UInt8] { encode(id: event.id, interaction: event.interaction) }

    /// The record as an array (tests, tools); `track` uses ``withRecord(id:interaction:_:)``.
    static func encode(id: EventID, interaction: borrowing Interaction) -> [UInt8] {
        withRecord(id: id, interaction: interaction) { Array($0) }
    }

    /// Writes the record without building a ``TrackedEvent`` (no copy of the interaction) into room of its
    /// own (``RecordWriter/room(size:)``, freed on return) and hands its bytes to `body`: the journal copies
    /// them into its buffer, so no array is made per event.
    ///
    /// One pass: the size is summed first (UTF-8 counts of native strings are stored, not counted), then
    /// every byte is stored through a pointer, with no growth checks and no intermediate strings (params
    /// and vendor events, rare, are JSON text first).
    static func withRecord<Result, Failure: Error>(id: EventID, interaction: borrowing Interaction,
                                                   _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result {
        let paramsText = interaction.context.params.isEmpty ? nil : JSONWriter.string(.object(interaction.context.params))
        let vendorText = interaction.vendorEvent.map(vendorEventText)
        let position = interaction.position.map { UInt64(max(0, $0)) + 1 } ?? 0
        var flags: UInt8 = 0
        if interaction.forcePush { flags |= 1 }
        if let testMode = interaction.context.testMode { flags |= testMode ? 6 : 2 }
        if let phase = interaction.searchPhase { flags |= phase == .beforeSearch ? 8 : 16 }
        let millis = RecordWriter.milliseconds(of: interaction.occurred)
        var size = 27 + RecordWriter.size(of: position)
        size += RecordWriter.size(of: interaction.instanceId) + RecordWriter.size(of: interaction.interactionId)
        size += RecordWriter.size(of: interaction.productId) + RecordWriter.size(ofStringsOf: interaction.context)
        size += RecordWriter.size(of: paramsText) + RecordWriter.size(of: vendorText)
        let kind = code(of: interaction.kind)
        var out = RecordWriter.room(size: size)
        defer { out.free() }
        out.byte(version)
        out.fixed(id.run)
        out.fixed(id.sequence)
        out.fixed(millis)
        out.byte(kind)
        out.byte(flags)
        out.varint(position)
        out.string(interaction.instanceId)
        out.string(interaction.interactionId)
        out.string(interaction.productId)
        out.strings(of: interaction.context)
        out.string(paramsText)
        out.string(vendorText)
        return try body(out.written("an event record's size was summed wrong"))
    }

    static func decode(_ bytes: ArraySlice<UInt8>) throws(TrackingError) -> TrackedEvent {
        var reader = Reader(bytes: bytes)
        guard let first = reader.byte(), first == version || first == versionWithoutVendorEvent else {
            throw .journal("unknown event record version")
        }
        guard let run = reader.fixed(), let sequence = reader.fixed(), let millis = reader.fixed(),
              let kindCode = reader.byte(), let kind = kind(code: kindCode), let flags = reader.byte(),
              let position = reader.varint() else { throw .journal("truncated event record") }
        guard RecordWriter.trackableMilliseconds.contains(Int64(bitPattern: millis)) else {
            throw .journal("event record with a time outside the years 1970 to 9999")
        }
        var strings: [String?] = []
        for _ in 0..<(first == version ? 13 : 12) {
            guard let string = reader.string() else { throw .journal("truncated event record") }
            strings.append(string)
        }
        var params: [String: JSONValue] = [:]
        if let text = strings[11], let object = (try? JSONValue(parsing: text))?.objectValue { params = object }
        let vendorEvent = try strings.count > 12 ? strings[12].map(vendorEvent(from:)) : nil
        guard (kind == .vendorEvent) == (vendorEvent != nil) else {
            throw .journal("event record with kind \(kind.rawValue) and \(vendorEvent == nil ? "no" : "a") vendor event")
        }
        let context = InteractionContext(userId: strings[3], sessionId: strings[4], lang: strings[5], currency: strings[6],
                                         pageUrl: strings[7], region: strings[8],
                                         testMode: flags & 2 != 0 ? flags & 4 != 0 : nil,
                                         os: strings[9], device: strings[10], params: params)
        let phase: Interaction.SearchPhase? = flags & 8 != 0 ? .beforeSearch : flags & 16 != 0 ? .search : nil
        let interaction = Interaction(kind: kind, instanceId: strings[0] ?? "", interactionId: strings[1] ?? "",
                                      productId: strings[2], position: position == 0 ? nil : Int(truncatingIfNeeded: position - 1), searchPhase: phase,
                                      context: context,
                                      occurred: RecordWriter.date(milliseconds: Int64(bitPattern: millis)),
                                      forcePush: flags & 1 != 0, vendorEvent: vendorEvent)
        return TrackedEvent(id: EventID(run: run, sequence: sequence), interaction: interaction)
    }

    private static func vendorEventText(_ event: VendorEvent) -> String {
        JSONWriter.string(.object(["vendor": .string(event.vendor.rawValue), "name": .string(event.name), "fields": .object(event.fields)]))
    }

    private static func vendorEvent(from text: String) throws(TrackingError) -> VendorEvent {
        guard let object = (try? JSONValue(parsing: text))?.objectValue, let vendor = object["vendor"]?.stringValue,
              let name = object["name"]?.stringValue, let fields = object["fields"]?.objectValue else {
            throw .journal("unreadable vendor event in event record")
        }
        return VendorEvent(vendor: Vendor(rawValue: vendor), name: name, fields: fields)
    }

    static func putFixed(_ value: UInt64, _ out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    static func putVarint(_ number: UInt64, _ out: inout [UInt8]) {
        var value = number
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    static func putString(_ optional: String?, _ out: inout [UInt8]) {
        guard var value = optional else { out.append(0); return }
        value.withUTF8 { utf8 in
            putVarint(UInt64(utf8.count) + 1, &out)
            out.append(contentsOf: utf8)
        }
    }

    struct Reader {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.index = bytes.startIndex
        }

        mutating func byte() -> UInt8? {
            guard index < bytes.endIndex else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func fixed() -> UInt64? {
            guard index + 8 <= bytes.endIndex else { return nil }
            var value: UInt64 = 0
            for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << UInt64(offset * 8) }
            index += 8
            return value
        }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let next = byte() {
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
                if shift > 63 { return nil }
            }
            return nil
        }

        /// Where the next string lies: nil when truncated; .some(nil) for an absent string.
        mutating func stringRange() -> Range<Int>?? {
            guard let marker = varint() else { return nil }
            if marker == 0 { return .some(nil) }
            guard marker - 1 <= UInt64(bytes.endIndex - index) else { return nil }
            let length = Int(marker - 1)
            defer { index += length }
            return .some(index..<(index + length))
        }

        /// nil when truncated; .some(nil) for an absent string.
        mutating func string() -> String?? {
            guard let marker = varint() else { return nil }
            if marker == 0 { return .some(nil) }
            guard marker - 1 <= UInt64(bytes.endIndex - index) else { return nil }
            let length = Int(marker - 1)
            defer { index += length }
            return .some(String(decoding: bytes[index..<(index + length)], as: UTF8.self))
        }
    }
}
