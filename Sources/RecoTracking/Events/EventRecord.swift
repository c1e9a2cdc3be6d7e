import Foundation

/// A journaled event as the journal holds it: its record's bytes, with where each field lies, read
/// without building a ``TrackedEvent``. Destinations encode their batches from these straight to the
/// wire (``TrackingDestination/request(forRecords:)``); ``event()`` gives the full value when needed.
///
/// Making one checks the record's shape (version, kind, every length in bounds), so a record that
/// cannot be read is found before its batch is encoded, as decoding it would find it.
public struct EventRecord: Sendable {
    /// The record's bytes (the journal's payload, as ``TrackedEvent`` is written by the codec).
    public let bytes: ArraySlice<UInt8>
    /// The tracker's id of the event.
    public let id: EventID
    /// When it happened, in milliseconds since 1970.
    public let occurredMilliseconds: Int64
    /// What kind of interaction.
    public let kind: Interaction.Kind
    /// The position in the block, if known.
    public let position: Int?
    private let flags: UInt8
    /// Where each string field lies in ``bytes`` (indices of the slice), nil when absent.
    public let instanceId: Range<Int>?, interactionId: Range<Int>?, productId: Range<Int>?
    /// The context's fields.
    public let userId: Range<Int>?, sessionId: Range<Int>?, lang: Range<Int>?, currency: Range<Int>?, pageUrl: Range<Int>?,
                region: Range<Int>?, os: Range<Int>?, device: Range<Int>?
    /// The context's params as JSON object text (absent when empty).
    public let params: Range<Int>?
    /// The vendor event as JSON text (only for ``Interaction/Kind/vendorEvent``).
    public let vendorEvent: Range<Int>?

    /// Reads a record's layout; throws the same errors as decoding it would.
    public init(bytes: ArraySlice<UInt8>) throws(TrackingError) {
        var reader = EventCodec.Reader(bytes: bytes)
        guard let version = reader.byte(), version == 2 || version == 1 else { throw .journal("unknown event record version") }
        guard let run = reader.fixed(), let sequence = reader.fixed(), let millis = reader.fixed(),
              let kindCode = reader.byte(), let kind = EventCodec.kind(code: kindCode), let flags = reader.byte(),
              let position = reader.varint() else { throw .journal("truncated event record") }
        func next() throws(TrackingError) -> Range<Int>? {
            guard let range = reader.stringRange() else { throw .journal("truncated event record") }
            return range
        }
        self.bytes = bytes
        self.id = EventID(run: run, sequence: sequence)
        self.occurredMilliseconds = Int64(bitPattern: millis)
        self.kind = kind
        self.flags = flags
        self.position = position == 0 ? nil : Int(truncatingIfNeeded: position - 1)
        instanceId = try next()
        interactionId = try next()
        productId = try next()
        userId = try next()
        sessionId = try next()
        lang = try next()
        currency = try next()
        pageUrl = try next()
        region = try next()
        os = try next()
        device = try next()
        params = try next()
        vendorEvent = version == 2 ? try next() : nil
        if (kind == .vendorEvent) != (vendorEvent != nil) {
            throw .journal("event record with kind \(kind.rawValue) and \(vendorEvent == nil ? "no" : "a") vendor event")
        }
        if vendorEvent != nil { _ = try EventCodec.decode(bytes) } // its JSON text must read too
    }

    /// The record of an event, as the tracker journals it.
    public init(_ event: TrackedEvent) {
        // The codec's own output always reads back.
        try! self.init(bytes: EventCodec.encode(event)[...])
    }

    /// The whole event as a value.
    public func event() throws(TrackingError) -> TrackedEvent { try EventCodec.decode(bytes) }

    /// The context's test mode, if set.
    public var testMode: Bool? { flags & 2 != 0 ? flags & 4 != 0 : nil }
    /// Before or after a search (search clicks).
    public var searchPhase: Interaction.SearchPhase? { flags & 8 != 0 ? .beforeSearch : flags & 16 != 0 ? .search : nil }
    /// Whether the interaction asked to be sent at once.
    public var forcePush: Bool { flags & 1 != 0 }
    /// When it happened.
    public var occurred: Date { Date(timeIntervalSince1970: Double(occurredMilliseconds) / 1000) }

    /// A field's text (for messages and slow paths).
    public func string(_ range: Range<Int>?) -> String? { range.map { String(decoding: bytes[$0], as: UTF8.self) } }
}
