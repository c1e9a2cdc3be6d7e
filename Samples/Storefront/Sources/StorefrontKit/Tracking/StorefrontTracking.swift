import Foundation
import Logging
import RecoKit
import RecoTracking
import RecoVendors

/// The storefront's interactions, sent to the vendor that showed each block: one ``Tracker`` per vendor,
/// each with its own journal folder under one directory (`segmentify/`, `reteno/`).
///
/// Tracking never fails a page: an interaction the tracker refuses is logged and counted in its statistics.
public final class StorefrontTracking: Sendable {
    /// Delivers Segmentify's INTERACTION events.
    public let segmentify: Tracker
    /// Delivers Reteno's recommendation events.
    public let reteno: Tracker
    let logger: Logger

    /// Opens both journals under `directory` (what a previous run left is delivered first).
    public init(directory: URL, settings: VendorSettings, transport: any Transport = URLSessionTransport.shared,
                flushInterval: Duration = .milliseconds(500), logger: Logger = Logger(label: "storefront.tracking")) throws {
        func configuration(_ name: String) -> TrackerConfiguration {
            var configuration = TrackerConfiguration(journal: directory.appendingPathComponent(name, isDirectory: true))
            configuration.flushInterval = flushInterval
            configuration.requestTimeout = .seconds(5)
            configuration.idlePollInterval = .milliseconds(50)
            return configuration
        }
        segmentify = try Tracker(destination: SegmentifyDestination(dataCenter: settings.segmentify, apiKey: settings.segmentifyApiKey,
                                                                    origin: settings.segmentifyOrigin),
                                 configuration: configuration("segmentify"), transport: transport)
        reteno = try Tracker(destination: RetenoDestination(base: settings.reteno, accessKey: settings.retenoAccessKey),
                             configuration: configuration("reteno"), transport: transport)
        self.logger = logger
        for tracker in [segmentify, reteno] where tracker.recoveryReport.pendingEvents > 0 {
            logger.info("\(tracker.destination.name): \(tracker.recoveryReport.pendingEvents) events left by the last run, sending them first")
        }
    }

    /// Impressions of the blocks rendered on a page: Segmentify one per block, Reteno one per product,
    /// each vendor's tracked together as one ``PageImpressions`` (one journal record, the visitor's
    /// context written once; each impression still an event of its own, with its own id).
    public func rendered(_ widgets: [Widget<StoreProduct>], context: InteractionContext) {
        var segmentifyPage = PageImpressions(context: context)
        var retenoPage = PageImpressions(context: context, occurred: segmentifyPage.occurred)
        for widget in widgets {
            if widget.vendor == .reteno { retenoPage.addProducts(of: widget) } else { segmentifyPage.addBlock(widget) }
        }
        track(segmentifyPage, on: segmentify)
        track(retenoPage, on: reteno)
    }

    /// A click on a product of a block, as its signed token tells it.
    public func clicked(_ token: ClickToken, context: InteractionContext) {
        let click = Interaction(kind: .click, instanceId: token.instanceId, interactionId: token.interactionId,
                                productId: token.productId, position: token.position, context: context)
        track(click, on: token.vendor == .reteno ? reteno : segmentify)
    }

    /// A block was seen. Only Segmentify has a widget-view event; for Reteno this records nothing and returns false.
    @discardableResult
    public func viewed(_ widget: RenderedWidgets.Shown, context: InteractionContext) -> Bool {
        guard widget.vendor != .reteno else { return false }
        let view = Interaction(kind: .widgetView, instanceId: widget.instanceId, interactionId: widget.interactionId, context: context)
        return track(view, on: segmentify)
    }

    /// Drains both trackers within `deadline`; what is left stays in the journals for the next start.
    public func shutdown(deadline: Duration) async -> [String: ShutdownSummary] {
        async let first = segmentify.shutdown(deadline: deadline)
        async let second = reteno.shutdown(deadline: deadline)
        return await ["segmentify": first, "reteno": second]
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
