import Foundation

/// Where a tracker delivers: a vendor's tracking endpoint. The one extension point a new vendor implements.
///
/// The engine journals ``TrackedEvent``s and, at send time, asks the destination to encode a batch
/// into a request and to judge the reply. It never knows a vendor's format.
public protocol TrackingDestination: Sendable {
    /// A short name for messages and statistics (`segmentify`).
    var name: String { get }
    /// Batch limits the vendor accepts.
    var limits: DestinationLimits { get }
    /// Refuses interactions the vendor cannot take (missing user, unsupported kind). Called in `track`.
    func validate(_ interaction: Interaction) throws(InteractionError)
    /// Refuses a page whose impressions the vendor cannot take, naming the first refused impression
    /// (``PageImpressions/place(of:)``). Called in `track(_: PageImpressions)` instead of ``validate(_:)-(Interaction)``
    /// per impression. By default each impression is validated as the interaction it stands for; a destination
    /// implements it to check the page's shared context once and each impression's own fields, and must refuse
    /// exactly the pages that the default refuses.
    func validate(_ page: PageImpressions) throws(InteractionError)
    /// A reason to dead-letter an event instead of sending it (for example older than the vendor keeps), or nil.
    func screen(_ event: TrackedEvent, now: Date) -> String?
    /// The request that delivers `events`, built at send time.
    func request(for events: [TrackedEvent]) -> TrackingRequest
    /// The request that delivers the journaled `records`: what the tracker calls. A destination that
    /// encodes straight from the records' bytes implements it; by default the records are decoded and
    /// ``request(for:)`` builds the request.
    func request(forRecords records: [EventRecord]) -> TrackingRequest
    /// ``screen(_:now:)`` for a journaled record: by default the record is decoded and screened.
    func screen(_ record: EventRecord, now: Date) -> String?
    /// Whether ``screen(_:now:)-(EventRecord,_)`` may answer a reason: when false, a tracker sends every
    /// record without asking about each (true by default).
    var screensEvents: Bool { get }
    /// What the reply means for the batch of `eventCount` events.
    func verdict(for reply: TrackingReply, eventCount: Int, now: Date) -> DeliveryVerdict
}

extension TrackingDestination {
    /// No screening by default.
    public func screen(_ event: TrackedEvent, now: Date) -> String? { nil }
    /// Records are screened by default (each one asked about: decoded, unless the destination reads them).
    public var screensEvents: Bool { true }
    /// Decodes the record and screens the event.
    public func screen(_ record: EventRecord, now: Date) -> String? {
        // A record reads back: `EventRecord` checked it when the tracker took it from the journal.
        guard let event = try? record.event() else { return nil }
        return screen(event, now: now)
    }
    /// Decodes the records and builds the request with ``request(for:)``.
    public func request(forRecords records: [EventRecord]) -> TrackingRequest {
        request(for: records.compactMap { try? $0.event() })
    }
    /// The shared HTTP rules by default (``DeliveryVerdict/standard(for:now:)``).
    public func verdict(for reply: TrackingReply, eventCount: Int, now: Date) -> DeliveryVerdict {
        .standard(for: reply, now: now)
    }
}

/// How large a batch a destination takes.
public struct DestinationLimits: Sendable, Hashable {
    /// Most events in one request.
    public var maxEvents: Int
    /// Most journaled bytes in one request (an estimate of the body; a 413 splits anyway).
    public var maxBytes: Int

    /// Limits.
    public init(maxEvents: Int, maxBytes: Int) {
        self.maxEvents = max(1, maxEvents)
        self.maxBytes = max(1, maxBytes)
    }
}
