import Foundation
import RecoHTTP
import RecoKit
import RecoTracking

/// Delivers impressions and clicks of recommendation variants to Reteno:
/// `POST {base}/api/v1/recoms/events` with `Content-Type: application/json`,
/// `X-Reteno-Access-Key` and, when set, `X-Reteno-SDK-Version` and `X-Reteno-Device-ID`.
///
/// ```swift
/// let destination = RetenoDestination(accessKey: "…")
/// try tracker.track(Interaction(kind: .impression, instanceId: "r1107v1482", productId: "240-LV09"))
/// ```
///
/// Only impressions (with a product) and clicks exist in Reteno's format; `track` refuses widget views
/// and search clicks. Events older than ``maximumAge`` (24 h) when their batch is sent are
/// dead-lettered with that reason rather than sent or dropped. `forcePush` on an interaction flushes
/// at once (at most once a second, ``TrackerConfiguration/forcePushInterval``).
public struct RetenoDestination: TrackingDestination {
    /// `https://mobile-api.reteno.com` unless a local server stands in.
    public var base: URL
    /// The access key.
    public var accessKey: String
    /// Sent as `X-Reteno-SDK-Version` when set.
    public var sdkVersion: String?
    /// Sent as `X-Reteno-Device-ID` when set.
    public var deviceId: String?
    /// Events older than this are dead-lettered before sending. Default 24 hours.
    public var maximumAge: Duration
    /// Whether each entry carries the tracker's id as `eventId`. Default true.
    public var includeEventIds: Bool
    public var limits: DestinationLimits

    /// A destination; batches hold at most `maxEvents` events (default 500).
    public init(base: URL = URL(string: "https://mobile-api.reteno.com")!, accessKey: String, sdkVersion: String? = nil,
                deviceId: String? = nil, maximumAge: Duration = .seconds(86_400), includeEventIds: Bool = true, maxEvents: Int = 500) {
        self.base = base
        self.accessKey = accessKey
        self.sdkVersion = sdkVersion
        self.deviceId = deviceId
        self.maximumAge = maximumAge
        self.includeEventIds = includeEventIds
        self.limits = DestinationLimits(maxEvents: maxEvents, maxBytes: 512 * 1024)
    }

    public var name: String { "reteno" }

    /// The events URL.
    public var eventsURL: URL { base.appendingPathComponent("api/v1/recoms/events") }

    public func validate(_ interaction: Interaction) throws(InteractionError) {
        try interaction.checkNotShopBlock(destination: name)
        guard interaction.kind == .impression || interaction.kind == .click else {
            throw .unsupported("Reteno has no \(interaction.kind.rawValue) event (only impression and click)")
        }
        guard !interaction.instanceId.isEmpty else { throw .missingField("recomVariantId", for: interaction.kind) }
        guard let productId = interaction.productId, !productId.isEmpty else {
            throw interaction.kind == .impression ? InteractionError.emptyProductId(for: .impression).hinting(Self.perProductHint)
                : InteractionError.emptyProductId(for: interaction.kind)
        }
    }

    /// What a block impression refused by Reteno should say: Reteno counts products, not blocks.
    static let perProductHint = "Reteno counts an impression per product shown: track Interaction.productImpressions(of:context:) "
        + "or a page's PageImpressions.addProducts(of:)"

    /// ``validate(_:)-(Interaction)`` for a page: every impression needs its variant and product ids, and
    /// none may be of a shop's own block. Refuses exactly what validating each impression refuses.
    public func validate(_ page: PageImpressions) throws(InteractionError) {
        for index in page.impressions.indices {
            let impression = page.impressions[index]
            if ShopBlock.isShopId(impression.instanceId) {
                throw InteractionError.shopBlock(impression.instanceId, destination: name).located(page.place(of: index))
            }
            guard !impression.instanceId.isEmpty else {
                throw InteractionError.missingField("recomVariantId", for: .impression).located(page.place(of: index))
            }
            guard let productId = impression.productId, !productId.isEmpty else {
                throw InteractionError.emptyProductId(for: .impression).hinting(Self.perProductHint).located(page.place(of: index))
            }
        }
    }

    /// A record older than ``maximumAge`` is dead-lettered with its age and the limit, rather than sent.
    public func screen(_ record: EventRecord, now: Date) -> String? {
        let age = now.timeIntervalSince(record.occurred)
        let limit = Double(maximumAge.components.seconds)
        guard age > limit else { return nil }
        return "older than Reteno accepts: occurred \(InteractionTime.iso8601(record.occurred)), "
            + "\(Int(age / 3600)) h before sending (limit \(Int(limit / 3600)) h)"
    }

    /// The request for `records`: their impressions and clicks grouped by variant, written straight from
    /// the records' bytes.
    public func request(for records: [EventRecord]) -> VendorRequest {
        VendorRequest(url: eventsURL, headers: headers, body: RetenoEventEncoder.body(records: records, includeEventIds: includeEventIds))
    }

    private var headers: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("X-Reteno-Access-Key", accessKey)]
        if let sdkVersion { headers.append(("X-Reteno-SDK-Version", sdkVersion)) }
        if let deviceId { headers.append(("X-Reteno-Device-ID", deviceId)) }
        return headers
    }
}
