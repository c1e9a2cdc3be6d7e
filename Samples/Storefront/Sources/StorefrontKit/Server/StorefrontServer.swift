import Foundation
import Hummingbird
import Logging
import RecoKitAsyncHTTPClient
import RecoPage
import RecoTracking
import RecoVendors
import ServiceLifecycle

/// Runs the storefront as one `ServiceGroup` (swift-service-lifecycle): the stand-in vendor when no real
/// vendor URL is given (or it alone with `--stand-in-only`), the trackers (``DrainedOnShutdown``) and the HTTP server, in that order. SIGTERM or
/// SIGINT shuts them down in reverse order: the server stops taking requests and finishes those in flight,
/// the trackers get ``StorefrontOptions/drainSeconds`` to deliver (the stand-in still answering them), and
/// what is left stays in the journal for the next start.
public enum StorefrontServer {
    /// Starts everything and returns after a signal and the drain.
    public static func run(_ options: StorefrontOptions) async throws {
        let logger = Logger(label: "storefront")
        if options.profile { StageClock.shared.enable() }
        var services: [any Service] = []
        let standInBase = URL(string: "http://127.0.0.1:\(options.vendorPort)")!
        if options.needsStandIn {
            let vendor = try StandInVendor(payloads: options.payloads ?? StandInVendor.defaultPayloads,
                                           behaviour: .init(delay: .milliseconds(options.vendorDelayMilliseconds), failing: options.vendorFails))
            services.append(Application(router: vendor.router(),
                                        configuration: .init(address: .hostname("127.0.0.1", port: options.vendorPort), serverName: "StandInVendor"),
                                        logger: Logger(label: "stand-in-vendor")))
            logger.info("stand-in vendor on \(standInBase) (Segmentify and Reteno, payloads from Samples/Payloads)")
        }
        if options.standInOnly {
            try await ServiceGroup(configuration: .init(services: services.map { .init(service: $0) },
                                                        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)).run()
            return
        }
        let settings = VendorSettings(
            segmentify: options.segmentifyURL ?? options.vendorURL ?? standInBase, reteno: options.retenoURL ?? options.vendorURL ?? standInBase,
            segmentifyApiKey: options.segmentifyApiKey, segmentifyOrigin: options.segmentifyOrigin,
            retenoAccessKey: options.retenoAccessKey, retenoVariant: try RetenoVariantId(options.retenoVariant),
            timeout: .milliseconds(options.timeoutMilliseconds), maxReplyBytes: options.maxReplyKilobytes * 1024)
        let transport: any Transport = options.transport == "urlsession"
            ? URLSessionTransport(maxReplyBytes: settings.maxReplyBytes) : AsyncHTTPClientTransport.shared
        #if os(Linux)
        if options.transport == "urlsession" {
            logger.warning("--transport urlsession: on Linux a vendor's or proxy's reply with a Content-Length near 2^63 stops this process (Foundation traps); the default, ahc, refuses it")
        }
        #endif
        // RecoKit's metrics in a Prometheus registry of the storefront's own, served at GET /metrics.
        let metrics = StorefrontMetrics()
        let tracking = try StorefrontTracking(directory: options.journal, settings: settings, transport: transport,
                                              drain: .seconds(options.drainSeconds), observer: metrics.tracking)
        metrics.watch(tracking)
        services += tracking.trackers.map { DrainedOnShutdown(tracker: $0, logger: Logger(label: "storefront.tracking")) }
        let cache = options.cacheSeconds > 0
            ? RecommendationsCache(timeToLive: .seconds(options.cacheSeconds), staleWhileRevalidate: .seconds(options.staleWhileRevalidateSeconds),
                                   staleIfError: .seconds(options.staleIfErrorSeconds))
            : nil
        let catalog = try Catalog.sample()
        let source = RecommendationSource(settings: settings, transport: transport, cache: cache, shopList: catalog.bestSellers(),
                                          observer: metrics.pages)
        let storefront = try Storefront(source: source, tracking: tracking,
                                        tokens: ClickTokens(lifetime: .seconds(options.clickLifetimeSeconds)),
                                        staticPage: options.staticPage.map(StaticPage.init(file:)),
                                        cookies: VisitorCookies(key: options.secret), catalog: catalog, metrics: metrics)
        services.append(Application(router: storefront.router(), server: ServerLimits(idleTimeout: .seconds(options.idleTimeoutSeconds)).server,
                                    configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "Storefront"),
                                    onServerRunning: { _ in
                                        logger.info("storefront on http://127.0.0.1:\(options.port)/products/100900, journal in \(options.journal.path)")
                                    },
                                    logger: logger))
        var configuration = ServiceGroupConfiguration(services: services.map { .init(service: $0) },
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Past the drain (and a few seconds for the server's requests in flight), the group is cancelled.
        configuration.maximumGracefulShutdownDuration = .seconds(options.drainSeconds + 10)
        try await ServiceGroup(configuration: configuration).run()
    }
}
