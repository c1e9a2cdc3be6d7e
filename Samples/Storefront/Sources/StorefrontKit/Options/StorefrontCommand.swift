import ArgumentParser
import Foundation
import Logging

/// `swift run Storefront`: the storefront's command line (swift-argument-parser). Each option can also be
/// set by the environment variable named in its help; the option wins over its variable.
public struct StorefrontCommand: AsyncParsableCommand {
    /// The command's name, summary and routes for `--help`.
    public static let configuration = CommandConfiguration(
        commandName: "Storefront",
        abstract: "A storefront on 127.0.0.1 whose product pages carry RecoKit recommendation blocks.",
        discussion: """
            Click-through (/r/{token}) and widget-view (/beacon) tracking; by default a stand-in vendor answers \
            Segmentify and Reteno from Samples/Payloads/ on its own port. SIGTERM or SIGINT stops taking \
            requests and gives the trackers --drain seconds to deliver what they hold.

            Routes: GET /products/{id} (?blocks=off: without blocks; 404 for a product the shop does not sell), \
            GET /r/{token} (records the click, 302 to the product), POST /beacon (instanceId, interactionId), \
            GET /metrics (Prometheus).
            """)

    @Option(help: ArgumentHelp("Storefront port (default 8080) [STOREFRONT_PORT].", valueName: "n")) var port: Int?
    @Option(help: ArgumentHelp("Stand-in vendor port (default 8081) [STOREFRONT_VENDOR_PORT].", valueName: "n")) var vendorPort: Int?
    @Option(help: ArgumentHelp("A real vendor base URL for both vendors; no stand-in is started [STOREFRONT_VENDOR_URL].", valueName: "url")) var vendorURL: String?
    @Option(help: ArgumentHelp("Segmentify data center, overriding --vendor-url [STOREFRONT_SEGMENTIFY_URL].", valueName: "url")) var segmentifyURL: String?
    @Option(help: ArgumentHelp("Reteno API base, overriding --vendor-url [STOREFRONT_RETENO_URL].", valueName: "url")) var retenoURL: String?
    @Option(help: ArgumentHelp("Segmentify API key [STOREFRONT_SEGMENTIFY_API_KEY].", valueName: "key")) var segmentifyApiKey: String?
    @Option(help: ArgumentHelp("Shop domain sent to Segmentify as Origin (default storefront.example) [STOREFRONT_SEGMENTIFY_ORIGIN].", valueName: "host"))
    var segmentifyOrigin: String?
    @Option(help: ArgumentHelp("Reteno access key [STOREFRONT_RETENO_ACCESS_KEY].", valueName: "key")) var retenoAccessKey: String?
    @Option(help: ArgumentHelp("Reteno variant on product pages (default r1105v1480) [STOREFRONT_RETENO_VARIANT].", valueName: "id")) var retenoVariant: String?
    @Option(help: ArgumentHelp("Tracking journal directory (default .storefront-journal) [STOREFRONT_JOURNAL].", valueName: "dir")) var journal: String?
    @Option(help: ArgumentHelp("Vendor timeout per page in milliseconds (default 300) [STOREFRONT_TIMEOUT_MS].", valueName: "ms")) var timeout: Int?
    @Option(name: .customLong("click-ttl"), help: ArgumentHelp("Click-through link lifetime in seconds (default 3600) [STOREFRONT_CLICK_TTL].", valueName: "seconds"))
    var clickTTL: Int?
    @Option(help: ArgumentHelp("HTTP client for vendors: ahc (AsyncHTTPClient, default) or urlsession (on Linux, a reply header can stop the process) [STOREFRONT_TRANSPORT].", valueName: "ahc|urlsession")) var transport: String?
    @Option(name: .customLong("cache-ttl"), help: ArgumentHelp("Reuse a product's blocks for this many seconds, for every visitor (default 0: off) [STOREFRONT_CACHE_TTL].", valueName: "seconds"))
    var cacheTTL: Int?
    @Option(name: .customLong("stale-while-revalidate"), help: ArgumentHelp("With --cache-ttl: serve blocks this many seconds longer while one fetch refreshes them (default 0) [STOREFRONT_STALE_WHILE_REVALIDATE].", valueName: "seconds"))
    var staleWhileRevalidate: Int?
    @Option(name: .customLong("stale-if-error"), help: ArgumentHelp("With --cache-ttl: keep a vendor's last good answer this many seconds longer, for when it fails (default 0) [STOREFRONT_STALE_IF_ERROR].", valueName: "seconds"))
    var staleIfError: Int?
    @Option(help: ArgumentHelp("Seconds allowed to deliver events on SIGTERM/SIGINT (default 5) [STOREFRONT_DRAIN].", valueName: "seconds")) var drain: Int?
    @Option(help: ArgumentHelp("Stand-in vendor payload folder (default Samples/Payloads) [STOREFRONT_PAYLOADS].", valueName: "dir")) var payloads: String?
    @Option(name: .customLong("vendor-delay"), help: ArgumentHelp("Stand-in vendor waits this many milliseconds before answering [STOREFRONT_VENDOR_DELAY_MS].", valueName: "ms"))
    var vendorDelay: Int?
    @Flag(name: .customLong("vendor-fail"), help: "Stand-in vendor answers recommendation requests with 503 [STOREFRONT_VENDOR_FAIL=1].")
    var vendorFail = false
    @Flag(name: .customLong("stand-in-only"), help: "Run only the stand-in vendor on --vendor-port, no storefront (measure.sh runs it in its own process, so a vendor's work is not counted as the shop's) [STOREFRONT_STAND_IN_ONLY=1].")
    var standInOnly = false
    @Option(name: .customLong("static-page"), help: ArgumentHelp("Serve this file as is at GET /static (measure.sh's reference) [STOREFRONT_STATIC_PAGE].", valueName: "file"))
    var staticPage: String?
    @Option(name: .customLong("max-reply-kb"), help: ArgumentHelp("Read at most this many KiB of a vendor's reply (default 4096) [STOREFRONT_MAX_REPLY_KB].", valueName: "kib"))
    var maxReplyKB: Int?
    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Close a connection idle (or slow to send its headers) this many seconds (default 30) [STOREFRONT_IDLE_TIMEOUT].", valueName: "seconds"))
    var idleTimeout: Int?
    @Option(help: ArgumentHelp("64 hex digits: the key that signs visitor cookies, so they outlive a restart (default: random) [STOREFRONT_SECRET].", valueName: "hex"))
    var secret: String?
    @Flag(help: "Log each stage's CPU time per page at exit (measure.sh's split) [STOREFRONT_PROFILE=1].") var profile = false

    /// An empty command (the parser fills it).
    public init() {}

    /// Refuses values out of range as a usage error.
    public func validate() throws {
        do {
            _ = try options()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Runs the storefront until SIGTERM or SIGINT, logging to standard error with each request's id.
    public func run() async throws {
        let options = try options()
        LoggingSystem.bootstrap({ label, provider in
            var handler = StreamLogHandler.standardError(label: label, metadataProvider: provider)
            handler.logLevel = .info
            return handler
        }, metadataProvider: RequestLogging.metadataProvider)
        try await StorefrontServer.run(options)
    }

    /// The settings: each option, else its environment variable, else the default.
    /// - Throws: ``OptionsError`` for a number out of range, a URL that is not http(s), or a malformed key.
    public func options(environment: [String: String] = ProcessInfo.processInfo.environment) throws(OptionsError) -> StorefrontOptions {
        let read = EnvironmentReader(environment: environment)
        var options = StorefrontOptions()
        options.port = try read.number(port, "--port", "STOREFRONT_PORT") ?? options.port
        options.vendorPort = try read.number(vendorPort, "--vendor-port", "STOREFRONT_VENDOR_PORT") ?? options.vendorPort
        options.vendorURL = try read.url(vendorURL, "--vendor-url", "STOREFRONT_VENDOR_URL")
        options.segmentifyURL = try read.url(segmentifyURL, "--segmentify-url", "STOREFRONT_SEGMENTIFY_URL")
        options.retenoURL = try read.url(retenoURL, "--reteno-url", "STOREFRONT_RETENO_URL")
        options.segmentifyApiKey = read.text(segmentifyApiKey, "STOREFRONT_SEGMENTIFY_API_KEY") ?? options.segmentifyApiKey
        options.segmentifyOrigin = read.text(segmentifyOrigin, "STOREFRONT_SEGMENTIFY_ORIGIN") ?? options.segmentifyOrigin
        options.retenoAccessKey = read.text(retenoAccessKey, "STOREFRONT_RETENO_ACCESS_KEY") ?? options.retenoAccessKey
        options.retenoVariant = read.text(retenoVariant, "STOREFRONT_RETENO_VARIANT") ?? options.retenoVariant
        if let path = read.text(journal, "STOREFRONT_JOURNAL") { options.journal = URL(fileURLWithPath: path, isDirectory: true) }
        options.timeoutMilliseconds = try read.number(timeout, "--timeout", "STOREFRONT_TIMEOUT_MS", 1...600_000) ?? options.timeoutMilliseconds
        options.clickLifetimeSeconds = try read.number(clickTTL, "--click-ttl", "STOREFRONT_CLICK_TTL", 1...365 * 86_400) ?? options.clickLifetimeSeconds
        options.drainSeconds = try read.number(drain, "--drain", "STOREFRONT_DRAIN", 0...3600) ?? options.drainSeconds
        options.cacheSeconds = try read.number(cacheTTL, "--cache-ttl", "STOREFRONT_CACHE_TTL", 0...365 * 86_400) ?? options.cacheSeconds
        options.staleWhileRevalidateSeconds = try read.number(staleWhileRevalidate, "--stale-while-revalidate", "STOREFRONT_STALE_WHILE_REVALIDATE",
                                                              0...365 * 86_400) ?? options.staleWhileRevalidateSeconds
        options.staleIfErrorSeconds = try read.number(staleIfError, "--stale-if-error", "STOREFRONT_STALE_IF_ERROR", 0...365 * 86_400)
            ?? options.staleIfErrorSeconds
        if let value = read.text(transport, "STOREFRONT_TRANSPORT") {
            guard ["ahc", "urlsession"].contains(value) else { throw .invalid("--transport", value, "ahc or urlsession") }
            options.transport = value
        }
        if let path = read.text(payloads, "STOREFRONT_PAYLOADS") { options.payloads = URL(fileURLWithPath: path, isDirectory: true) }
        options.vendorDelayMilliseconds = try read.number(vendorDelay, "--vendor-delay", "STOREFRONT_VENDOR_DELAY_MS", 0...600_000) ?? 0
        options.vendorFails = vendorFail || read.isOn("STOREFRONT_VENDOR_FAIL")
        options.standInOnly = standInOnly || read.isOn("STOREFRONT_STAND_IN_ONLY")
        if let path = read.text(staticPage, "STOREFRONT_STATIC_PAGE") { options.staticPage = URL(fileURLWithPath: path) }
        options.maxReplyKilobytes = try read.number(maxReplyKB, "--max-reply-kb", "STOREFRONT_MAX_REPLY_KB", 1...(1 << 20)) ?? options.maxReplyKilobytes
        options.idleTimeoutSeconds = try read.number(idleTimeout, "--idle-timeout", "STOREFRONT_IDLE_TIMEOUT", 1...3600) ?? options.idleTimeoutSeconds
        if let value = read.text(secret, "STOREFRONT_SECRET") {
            guard value.utf8.count == 64, let key = EnvironmentReader.bytes(hex: value) else { throw .invalid("--secret", "(hidden)", "64 hex digits") }
            options.secret = key
        }
        options.profile = profile || read.isOn("STOREFRONT_PROFILE")
        // A cached block's links were signed when it was rendered: they must outlive the cache entry.
        if options.cacheSeconds >= options.clickLifetimeSeconds {
            throw .invalid("--cache-ttl", String(options.cacheSeconds),
                           "fewer seconds than --click-ttl (\(options.clickLifetimeSeconds)), so cached links outlive the cache")
        }
        // Stale blocks are the ones rendered when the answer was fresh: their links too.
        let stale = max(options.staleWhileRevalidateSeconds, options.staleIfErrorSeconds)
        if options.cacheSeconds > 0, options.cacheSeconds + stale >= options.clickLifetimeSeconds {
            let flag = options.staleIfErrorSeconds >= options.staleWhileRevalidateSeconds ? "--stale-if-error" : "--stale-while-revalidate"
            throw .invalid(flag, String(stale), "fewer seconds, with --cache-ttl's \(options.cacheSeconds), than --click-ttl (\(options.clickLifetimeSeconds)), so stale links outlive the cache")
        }
        return options
    }
}
