import Foundation
import Logging
import RecoDestinations
import RecoKit
import RecoKitAsyncHTTPClient
import RecoTracking

/// The storefront's interactions, sent to the vendor that showed each block: one ``Tracker`` per vendor,
/// each over a journal of its own under one directory (`segmentify/`, `reteno/`). The trackers deliver
/// while they run (``StorefrontServer`` runs each as a service of its group; ``run()`` runs both).
///
/// Tracking never fails a page: an interaction the tracker refuses is logged and counted in its statistics.
public final class StorefrontTracking: Sendable {
    /// Delivers Segmentify's INTERACTION events.
    public let segmentify: Tracker
    /// Delivers Reteno's recommendation events.
    public let reteno: Tracker
    let logger: Logger

    /// Opens both journals under `directory` (what a previous run left goes out first once they run).
    /// - Parameters:
    ///   - drain: how long each tracker goes on delivering once it is stopped.
    ///   - observer: sees each request the trackers send (``StorefrontMetrics/tracking``); none by default.
    ///   - clock: where the trackers read the time (the oldest pending event's age, retries); tests move it.
    public init(directory: URL, settings: VendorSettings, transport: any Transport = AsyncHTTPClientTransport.shared,
                flushInterval: Duration = .milliseconds(500), drain: Duration = .seconds(5), observer: (any TrackingObserver)? = nil,
                clock: any TrackingClock = SystemTrackingClock(), logger: Logger = Logger(label: "storefront.tracking")) throws {
        var configuration = TrackerConfiguration()
        configuration.flushInterval = flushInterval
        configuration.requestTimeout = .seconds(5)
        configuration.idlePollInterval = .milliseconds(50)
        configuration.drainDeadline = drain
        configuration.observer = observer
        func journal(_ name: String) throws -> JournalStore {
            let store = try JournalStore(directory: directory.appendingPathComponent(name, isDirectory: true))
            if store.recoveryReport.pendingEvents > 0 {
                logger.info("\(name): \(store.recoveryReport.pendingEvents) events left by the last run, sending them first")
            }
            return store
        }
        segmentify = Tracker(destination: SegmentifyDestination(dataCenter: settings.segmentify, apiKey: settings.segmentifyApiKey,
                                                                origin: settings.segmentifyOrigin),
                             store: try journal("segmentify"), configuration: configuration, transport: transport, clock: clock)
        reteno = Tracker(destination: RetenoDestination(base: settings.reteno, accessKey: settings.retenoAccessKey),
                         store: try journal("reteno"), configuration: configuration, transport: transport, clock: clock)
        self.logger = logger
    }

    /// Both trackers, Segmentify's first.
    public var trackers: [Tracker] { [segmentify, reteno] }

    /// Runs both trackers until cancelled; each then drains for its deadline, and what is left stays in
    /// its journal for the next start.
    public func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            for tracker in trackers { group.addTask { try await tracker.run() } }
        }
    }

    /// Impressions of the blocks rendered on a page: Segmentify one per block, Reteno one per product,
    /// each vendor's tracked together as one ``PageImpressions`` (one journal record, the visitor's
    /// context written once; each impression still an event of its own, with its own id). A block from
    /// the shop's own list (`Widget.isShopBlock`, shown when a vendor failed) is no vendor's: not tracked.
    public func rendered(_ widgets: [Widget<StoreProduct>], context: InteractionContext) {
        var segmentifyPage = PageImpressions(context: context)
        var retenoPage = PageImpressions(context: context, occurred: segmentifyPage.occurred)
        for widget in widgets where !widget.isShopBlock {
            if widget.vendor == .reteno { retenoPage.addProducts(of: widget) } else { segmentifyPage.addBlock(widget) }
        }
        track(segmentifyPage, on: segmentify)
        track(retenoPage, on: reteno)
    }

    /// A click on a product of a block, as its signed token tells it (none for a block of the shop's own list).
    public func clicked(_ token: ClickToken, context: InteractionContext) {
        guard token.vendor != .shop, !ShopBlock.isShopId(token.instanceId) else { return }
        let click = Interaction(kind: .click, instanceId: token.instanceId, interactionId: token.interactionId,
                                productId: token.productId, position: token.position, context: context)
        track(click, on: token.vendor == .reteno ? reteno : segmentify)
    }

    /// A block was seen. Only Segmentify has a widget-view event; for Reteno this records nothing and returns false.
    @discardableResult
    public func viewed(_ widget: RenderedWidgets.Shown, context: InteractionContext) -> Bool {
        guard widget.vendor != .reteno, widget.vendor != .shop, !ShopBlock.isShopId(widget.instanceId) else { return false }
        let view = Interaction(kind: .widgetView, instanceId: widget.instanceId, interactionId: widget.interactionId, context: context)
        return track(view, on: segmentify)
    }

    /// Tracks a page's impressions (nothing for a page without any): all or none, as the tracker takes them.
    private func track(_ page: PageImpressions, on tracker: Tracker) {
        guard !page.impressions.isEmpty else { return }
        do {
            try tracker.track(page)
        } catch {
            logger.warning("\(tracker.destination.name): \(page.impressions.count) impressions of a page not tracked: \(error)")
        }
    }

    @discardableResult
    private func track(_ interaction: Interaction, on tracker: Tracker) -> Bool {
        do {
            try tracker.track(interaction)
            return true
        } catch {
            logger.warning("\(tracker.destination.name): \(interaction.kind.rawValue) not tracked: \(error)")
            return false
        }
    }
}
