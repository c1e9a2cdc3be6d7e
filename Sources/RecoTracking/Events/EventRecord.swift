import Foundation

/// A journaled event as the journal holds it: its record's bytes, with where each field lies, read
/// without building a ``TrackedEvent``. Destinations encode their batches from these straight to the
/// wire (``TrackingDestination/request(forRecords:)``); ``event()`` gives the full value when needed.
///
/// Making one checks the record's shape (version, kind, every length in bounds), so a record that
/// cannot be read is found before its batch is encoded, as decoding it would find it.
public struct EventRecord: Sendable {
    /// The string fields of a record, in the order the codec writes them.
    public enum Field: Int, Sendable, CaseIterable {
        case instanceId, interactionId, productId, userId, sessionId, lang, currency, pageUrl, region, os, device
        /// The context's params as JSON object text (absent when empty).
        case params
        /// The vendor event as JSON text (only for ``Interaction/Kind/vendorEvent``).
        case vendorEvent
    }

    /// The record's bytes (the journal's payload, as ``TrackedEvent`` is written by the codec); for one
    /// impression of a page's record, the whole page's record (see ``standaloneBytes()``).
    public let bytes: ArraySlice<UInt8>
    /// The tracker's id of the event.
    public let id: EventID
    /// When it happened, in milliseconds since 1970.
    public let occurredMilliseconds: Int64
    /// What kind of interaction.
    public let kind: Interaction.Kind
    /// The position in the block, if known.
    public let position: Int?
    @usableFromInline let flags: UInt8
    /// Whether the record is one impression of a page record (``bytes`` then holds the whole page).
    @usableFromInline let isPageImpression: Bool
    /// Each field as its offset from the first byte (high 32 bits) and its length + 1 (low 32 bits); 0 when absent.
    @usableFromInline let spans: Spans

    @usableFromInline struct Spans: Sendable {
        @usableFromInline var values: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        /// Every field's length + 1 (0 when absent) and a byte for its marker.
        @inlinable var fieldBytes: Int {
            // Summed from the tuple's elements as they are (an array of them would be a copy, maybe on the heap).
            let (a, b, c, d, e, f, g, h, i, j, k, l, m) = values
            let mask: UInt64 = 0xFFFF_FFFF
            let firstHalf = (a & mask) &+ (b & mask) &+ (c & mask) &+ (d & mask) &+ (e & mask) &+ (f & mask)
            let secondHalf = (g & mask) &+ (h & mask) &+ (i & mask) &+ (j & mask) &+ (k & mask) &+ (l & mask) &+ (m & mask)
            return Int(truncatingIfNeeded: 13 &+ firstHalf &+ secondHalf)
        }

        /// One field's span (a constant field, inlined, is one element of the tuple).
        @inlinable subscript(field: Field) -> UInt64 {
            get {
                switch field {
                case .instanceId: values.0
                case .interactionId: values.1
                case .productId: values.2
                case .userId: values.3
                case .sessionId: values.4
                case .lang: values.5
                case .currency: values.6
                case .pageUrl: values.7
                case .region: values.8
                case .os: values.9
                case .device: values.10
                case .params: values.11
                case .vendorEvent: values.12
                }
            }
            set {
                switch field {
                case .instanceId: values.0 = newValue
                case .interactionId: values.1 = newValue
                case .productId: values.2 = newValue
                case .userId: values.3 = newValue
                case .sessionId: values.4 = newValue
                case .lang: values.5 = newValue
                case .currency: values.6 = newValue
                case .pageUrl: values.7 = newValue
                case .region: values.8 = newValue
                case .os: values.9 = newValue
                case .device: values.10 = newValue
                case .params: values.11 = newValue
                case .vendorEvent: values.12 = newValue
                }
            }
        }
    }

    /// Reads a record's layout; throws the same errors as decoding it would.
    public init(bytes: ArraySlice<UInt8>) throws(TrackingError) {
        // Parsed in place (an optional result of this size is copied twice on the way out).
        var parsed = Parsed()
        guard Self.parse(bytes, into: &parsed) else {
            if bytes.first == PageRecordCodec.version { throw .journal("a page record holds several events: read it with EventRecord.read(_:into:)") }
            throw .journal(bytes.first == 1 || bytes.first == 2 ? "truncated event record" : "unknown event record version")
        }
        guard let kind = EventCodec.kind(code: parsed.kind) else { throw .journal("truncated event record") }
        guard RecordWriter.trackableMilliseconds.contains(Int64(bitPattern: parsed.millis)) else {
            throw .journal("event record with a time outside the years 1970 to 9999")
        }
        let hasVendorEvent = parsed.spans[.vendorEvent] != 0
        if (kind == .vendorEvent) != hasVendorEvent {
            throw .journal("event record with kind \(kind.rawValue) and \(hasVendorEvent ? "a" : "no") vendor event")
        }
        if hasVendorEvent { _ = try EventCodec.decode(bytes) } // its JSON text must read too
        // Every check before the record is made: a throw after its fields were set kept a second copy of
        // it (retained, then released) for the throwing path, at every record read.
        self.init(bytes: bytes, id: EventID(run: parsed.run, sequence: parsed.sequence), occurredMilliseconds: Int64(bitPattern: parsed.millis),
                  kind: kind, position: parsed.position == 0 ? nil : Int(truncatingIfNeeded: parsed.position - 1),
                  flags: parsed.flags, spans: parsed.spans, isPageImpression: false)
    }

    /// A record whose layout is already read (a page record's impression).
    init(bytes: ArraySlice<UInt8>, id: EventID, occurredMilliseconds: Int64, kind: Interaction.Kind, position: Int?,
         flags: UInt8, spans: Spans, isPageImpression: Bool) {
        self.bytes = bytes
        self.id = id
        self.occurredMilliseconds = occurredMilliseconds
        self.kind = kind
        self.position = position
        self.flags = flags
        self.spans = spans
        self.isPageImpression = isPageImpression
    }

    private struct Parsed {
        var run: UInt64 = 0, sequence: UInt64 = 0, millis: UInt64 = 0, kind: UInt8 = 0, flags: UInt8 = 0, position: UInt64 = 0
        var spans = Spans()
    }

    /// Reads the fixed part and the string spans into `parsed`; false when the version is unknown or the
    /// record is short.
    private static func parse(_ bytes: ArraySlice<UInt8>, into parsed: inout Parsed) -> Bool {
        var reader = RecordReader(bytes, at: 27)
        guard reader.count >= 27, reader[0] == 1 || reader[0] == 2 else { return false }
        parsed.run = reader.fixed(at: 1)
        parsed.sequence = reader.fixed(at: 9)
        parsed.millis = reader.fixed(at: 17)
        parsed.kind = reader[25]
        parsed.flags = reader[26]
        guard let position = reader.varint() else { return false }
        parsed.position = position
        // Field after field, in the order of the spans' tuple (a version-1 record has no vendor event).
        guard let instanceId = reader.span(), let interactionId = reader.span(), let productId = reader.span(),
              let userId = reader.span(), let sessionId = reader.span(), let lang = reader.span(), let currency = reader.span(),
              let pageUrl = reader.span(), let region = reader.span(), let os = reader.span(), let device = reader.span(),
              let params = reader.span() else { return false }
        var vendorEvent: UInt64 = 0
        if reader[0] == 2 {
            guard let span = reader.span() else { return false }
            vendorEvent = span
        }
        parsed.spans.values = (instanceId, interactionId, productId, userId, sessionId, lang, currency, pageUrl, region, os, device, params, vendorEvent)
        return true
    }

    /// The record of an event, as the tracker journals it.
    public init(_ event: TrackedEvent) {
        // The codec's own output always reads back.
        try! self.init(bytes: EventCodec.encode(event)[...])
    }

    /// The whole event as a value.
    public func event() throws(TrackingError) -> TrackedEvent {
        isPageImpression ? PageRecordCodec.event(of: self) : try EventCodec.decode(bytes)
    }

    /// The event alone as a journal record: ``bytes`` itself, or for one impression of a page record,
    /// that impression written as a record of its own (same id), as dead letters keep it.
    public func standaloneBytes() -> ArraySlice<UInt8> {
        isPageImpression ? EventCodec.encode(PageRecordCodec.event(of: self))[...] : bytes
    }

    /// About how many of ``bytes`` are this event's own (for sizing buffers; a page record's impression
    /// counts its shared context and its own fields, not the whole page).
    @inlinable public var ownByteCount: Int {
        guard isPageImpression else { return bytes.count }
        // Every field's length + 1 (0 when absent) and a byte for its marker, read straight from the spans.
        return 27 + spans.fieldBytes
    }

    /// Whether this record and `other` are impressions read from one page record (or from two with the same
    /// bytes) that name the same block (the same instance id and interaction id, byte for byte): then they
    /// differ only in their ids, product ids and positions.
    @inlinable public func isImpression(ofSameBlockAs other: EventRecord) -> Bool {
        guard isPageImpression, other.isPageImpression, bytes.count == other.bytes.count else { return false }
        let instance = (spans[.instanceId], other.spans[.instanceId]), interaction = (spans[.interactionId], other.spans[.interactionId])
        // Same lengths (and presence) first: the low 32 bits of a span.
        guard UInt32(truncatingIfNeeded: instance.0) == UInt32(truncatingIfNeeded: instance.1),
              UInt32(truncatingIfNeeded: interaction.0) == UInt32(truncatingIfNeeded: interaction.1) else { return false }
        // The same page record: slices of one array at one place compare equal at once, without their bytes.
        guard bytes == other.bytes else { return false }
        return sameText(instance.0, instance.1) && sameText(interaction.0, interaction.1)
    }

    /// Whether two spans of the same length in the record's bytes hold the same text.
    @inlinable func sameText(_ one: UInt64, _ other: UInt64) -> Bool {
        guard one != other else { return true }
        let count = Int(one & 0xFFFF_FFFF) - 1
        var left = bytes.startIndex + Int(one >> 32), right = bytes.startIndex + Int(other >> 32)
        let end = left + count
        while left < end {
            if bytes[left] != bytes[right] { return false }
            left += 1
            right += 1
        }
        return true
    }

    /// Where a field lies in ``bytes`` (indices of the slice), nil when absent.
    @inlinable public func range(_ field: Field) -> Range<Int>? {
        let span = spans[field]
        guard span != 0 else { return nil }
        let start = bytes.startIndex + Int(span >> 32)
        return start..<(start + Int(span & 0xFFFF_FFFF) - 1)
    }

    /// Runs `body` with the record's bytes and its fields as buffers (nil when absent): the encoders' fast path.
    @inlinable public func withFields<Result>(_ body: (Fields) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(Fields(base: $0.baseAddress!, spans: spans)) }
    }

    /// A record's string fields as buffers, valid inside ``withFields(_:)``.
    public struct Fields {
        @usableFromInline let base: UnsafePointer<UInt8>
        @usableFromInline let spans: Spans

        @inlinable init(base: UnsafePointer<UInt8>, spans: Spans) {
            self.base = base
            self.spans = spans
        }

        /// The field's UTF-8 bytes, nil when absent.
        @inlinable @inline(__always) public subscript(field: Field) -> UnsafeBufferPointer<UInt8>? {
            let span = spans[field]
            guard span != 0 else { return nil }
            return UnsafeBufferPointer(start: base + Int(span >> 32), count: Int(span & 0xFFFF_FFFF) - 1)
        }
    }

    /// The context's test mode, if set.
    @inlinable public var testMode: Bool? { flags & 2 != 0 ? flags & 4 != 0 : nil }
    /// Before or after a search (search clicks).
    @inlinable public var searchPhase: Interaction.SearchPhase? { flags & 8 != 0 ? .beforeSearch : flags & 16 != 0 ? .search : nil }
    /// Whether the interaction asked to be sent at once.
    public var forcePush: Bool { flags & 1 != 0 }
    /// When it happened.
    public var occurred: Date { RecordWriter.date(milliseconds: occurredMilliseconds) }

    /// The block's instance id (Reteno's variant), nil when absent.
    public var instanceId: Range<Int>? { range(.instanceId) }
    /// The product's id, nil when absent.
    public var productId: Range<Int>? { range(.productId) }
    /// The context's region, nil when absent.
    public var region: Range<Int>? { range(.region) }
    /// The context's user id, nil when absent.
    public var userId: Range<Int>? { range(.userId) }

    /// A field's text (for messages and slow paths).
    public func string(_ range: Range<Int>?) -> String? { range.map { String(decoding: bytes[$0], as: UTF8.self) } }
    /// A field's text (for messages and slow paths).
    public func string(_ field: Field) -> String? { string(range(field)) }
}
