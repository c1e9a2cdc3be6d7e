import Foundation
import Hummingbird
import Logging
import RecoTracking
import RecoVendors
import ServiceLifecycle

/// Runs the storefront (and the stand-in vendor when no real vendor URL is given) until SIGTERM or
/// SIGINT, then gives the trackers ``StorefrontOptions/drainSeconds`` to deliver what they hold; the
/// rest stays in the journal for the next start.
public enum StorefrontServer {
    /// Starts everything and returns after a signal and the drain.
    public static func run(_ options: StorefrontOptions) async throws {
        var logger = Logger(label: "storefront")
        logger.logLevel = .info
        let standInBase = URL(string: "http://127.0.0.1:\(options.vendorPort)")!
        var standIn: (group: ServiceGroup, task: Task<Void, any Error>)?
        if options.needsStandIn {
            let vendor = try StandInVendor(payloads: options.payloads ?? StandInVendor.defaultPayloads,
                                           behaviour: .init(delay: .milliseconds(options.vendorDelayMilliseconds), failing: options.vendorFails))
            let app = Application(router: vendor.router(),
                                  configuration: .init(address: .hostname("127.0.0.1", port: options.vendorPort), serverName: "StandInVendor"),
                                  logger: Logger(label: "stand-in-vendor"))
            // Its own group, deaf to signals: it must keep answering while the trackers drain.
            let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "stand-in-vendor")))
            standIn = (group, Task { try await group.run() })
            logger.info("stand-in vendor on \(standInBase) (Segmentify and Reteno, payloads from Samples/Payloads)")
        }
        let settings = VendorSettings(
            segmentify: options.segmentifyURL ?? options.vendorURL ?? standInBase, reteno: options.retenoURL ?? options.vendorURL ?? standInBase,
            segmentifyApiKey: options.segmentifyApiKey, segmentifyOrigin: options.segmentifyOrigin,
            retenoAccessKey: options.retenoAccessKey, retenoVariant: try RetenoVariantId(options.retenoVariant),
            timeout: .milliseconds(options.timeoutMilliseconds), maxReplyBytes: options.maxReplyKilobytes * 1024)
        let transport: any Transport = options.transport == "urlsession"
            ? CappedURLSessionTransport(maxReplyBytes: settings.maxReplyBytes) : AsyncHTTPClientTransport(maxReplyBytes: settings.maxReplyBytes)
        let tracking = try StorefrontTracking(directory: options.journal, settings: settings, transport: transport)
        let storefront = try Storefront(source: RecommendationSource(settings: settings, transport: transport), tracking: tracking,
                                        tokens: ClickTokens(lifetime: .seconds(options.clickLifetimeSeconds)),
                                        cache: options.cacheSeconds > 0 ? RecommendationCache(lifetime: .seconds(options.cacheSeconds)) : nil,
                                        staticPage: options.staticPage.map(StaticPage.init(file:)),
                                        cookies: VisitorCookies(key: options.secret))
        let app = Application(router: storefront.router(),
                              configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "Storefront"),
                              logger: logger)
        logger.info("storefront on http://127.0.0.1:\(options.port)/products/100900, journal in \(options.journal.path)")
        do {
            try await app.runService()
        } catch {
            logger.error("server stopped: \(error)")
        }
        let summaries = await tracking.shutdown(deadline: .seconds(options.drainSeconds))
        for (name, summary) in summaries.sorted(by: { $0.key < $1.key }) {
            logger.info("tracking \(name): \(summary)")
        }
        if let standIn {
            await standIn.group.triggerGracefulShutdown()
            _ = await standIn.task.result
        }
    }
}
