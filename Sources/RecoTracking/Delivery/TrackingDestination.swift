import Foundation
import RecoHTTP
import RecoKit

/// Where a tracker delivers: a vendor's tracking endpoint. The one extension point a new vendor implements.
///
/// A destination does three things, and the tracker does the rest (storing, batching, retrying, bisecting a
/// refused batch, dead-lettering): it refuses the interactions its vendor cannot take, writes the request
/// for a batch of stored records, and says what the vendor's reply means. See <doc:WriteADestination>.
///
/// ```swift
/// struct Webhook: TrackingDestination {
///     let url: URL
///     var name: String { "webhook" }
///     var limits: DestinationLimits { DestinationLimits(maxEvents: 200, maxBytes: 256 * 1024) }
///     func validate(_ interaction: Interaction) throws(InteractionError) {}
///     func request(for records: [EventRecord]) -> VendorRequest {
///         var body = BodyWriter(capacity: records.count * 64)
///         body.append("[")
///         for (index, record) in records.enumerated() {
///             if index > 0 { body.append(",") }
///             body.appendJSONString(record.id.description)
///         }
///         body.append("]")
///         return VendorRequest(url: url, headers: [("Content-Type", "application/json")], body: body.finish())
///     }
/// }
/// ```
public protocol TrackingDestination: Sendable {
    /// A short name for messages and statistics (`segmentify`).
    var name: String { get }
    /// How large a batch the vendor takes.
    var limits: DestinationLimits { get }
    /// Refuses an interaction the vendor cannot take (a missing user, a kind it has no event for), so that
    /// `track` refuses it at once rather than the vendor later.
    func validate(_ interaction: Interaction) throws(InteractionError)
    /// Refuses a page whose impressions the vendor cannot take, naming the first refused impression
    /// (``PageImpressions/place(of:)``). By default each impression is validated as the interaction it
    /// stands for; a destination may check the page's shared context once instead, and must then refuse
    /// exactly the pages the default refuses.
    func validate(_ page: PageImpressions) throws(InteractionError)
    /// The request that delivers `records` (one request; the tracker keeps a batch within ``limits``).
    func request(for records: [EventRecord]) -> VendorRequest
    /// A reason to dead-letter a record instead of sending it (older than the vendor keeps, say), or nil
    /// (the default).
    func screen(_ record: EventRecord, now: Date) -> String?
    /// What the reply means for the batch of `eventCount` events; by default the shared HTTP rules
    /// (``DeliveryVerdict/standard(for:now:)``).
    func verdict(for reply: VendorReply, eventCount: Int, now: Date) -> DeliveryVerdict
}

extension TrackingDestination {
    /// Nothing is screened out.
    public func screen(_ record: EventRecord, now: Date) -> String? { nil }
    /// The shared HTTP rules (``DeliveryVerdict/standard(for:now:)``).
    public func verdict(for reply: VendorReply, eventCount: Int, now: Date) -> DeliveryVerdict {
        .standard(for: reply, now: now)
    }
}

/// How large a batch a destination takes.
public struct DestinationLimits: Sendable, Hashable {
    /// Most events in one request.
    public var maxEvents: Int
    /// Most stored bytes in one request (an estimate of the body; a 413 splits anyway).
    public var maxBytes: Int

    /// Limits.
    public init(maxEvents: Int, maxBytes: Int) {
        self.maxEvents = max(1, maxEvents)
        self.maxBytes = max(1, maxBytes)
    }
}
