import Foundation
import RecoKitAsyncHTTPClient
import Hummingbird
import HummingbirdTesting
import Logging
import RecoKit
import RecoPage
import RecoTracking
import Testing
@testable import StorefrontKit

/// A storefront wired to a stand-in vendor on a real loopback port, for one test.
struct Harness {
    enum VendorState { case up, down }

    let vendor: StandInVendor
    let storefront: Storefront
    /// What the storefront logged (its recommendation source and its routes).
    let log: LogRecorder
    /// Its metrics, also served at `GET /metrics`.
    var metrics: StorefrontMetrics { storefront.metrics! }

    /// The blocks of `segmentify-product-page.json` a product page shows (scn_…030 has nothing in stock to show).
    static let segmentifyBlocks: [(instanceId: String, interactionId: String)] = [
        ("scn_64f1c2a9d7e3b001", "act_64f1c2a9d7e3b002"), ("scn_64f1c2a9d7e3b010", "act_64f1c2a9d7e3b011"),
        ("scn_64f1c2a9d7e3b020", "act_64f1c2a9d7e3b021"), ("scn_64f1c2a9d7e3b040", "act_64f1c2a9d7e3b041"),
    ]

    /// Runs `body` with a router-level client of a storefront whose vendors are the stand-in (or an unused port).
    /// The vendor timeout in tests: generous, since tests run in parallel on a busy machine (the sample's default is 300 ms);
    /// a test of a slow vendor gives its own, shorter one.
    static let timeout = Duration.seconds(10)

    /// The test servers' own logger: warnings only, so a passing test prints nothing ("Server started…").
    static var serverLogger: Logger {
        var logger = Logger(label: "storefront-tests")
        logger.logLevel = .warning
        return logger
    }

    static func run(behaviour: StandInVendor.Behaviour = .init(), vendorState: VendorState = .up, tokens: ClickTokens = ClickTokens(),
                    cache: RecommendationsCache? = nil, staticPage: StaticPage? = nil, transport: any Transport = AsyncHTTPClientTransport.shared,
                    rendered: RenderedWidgets = RenderedWidgets(), clicks: ClickLedger = ClickLedger(),
                    vendor: StandInVendor? = nil, timeout: Duration = Harness.timeout, limits: StorefrontLimits = StorefrontLimits(),
                    shopList: ShopList? = nil, trackingClock: any TrackingClock = SystemTrackingClock(), live: Bool = false,
                    _ body: @escaping @Sendable (any TestClientProtocol, Harness) async throws -> Void) async throws {
        let vendor = try vendor ?? StandInVendor(behaviour: behaviour)
        let log = LogRecorder()
        let vendorApp = Application(router: vendor.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Self.serverLogger)
        try await vendorApp.test(.live) { vendorClient in
            let port = try #require(vendorClient.port)
            let base = URL(string: vendorState == .up ? "http://127.0.0.1:\(port)" : "http://127.0.0.1:9")!
            let settings = VendorSettings(standIn: base, timeout: timeout)
            let journal = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-tests-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: journal) }
            // Each test's metrics in a registry of its own (no process-wide bootstrap: tests run side by side).
            let metrics = StorefrontMetrics()
            let tracking = try StorefrontTracking(directory: journal, settings: settings, transport: transport, flushInterval: .milliseconds(20),
                                                  drain: .seconds(1), observer: metrics.tracking, clock: trackingClock)
            metrics.watch(tracking)
            let source = RecommendationSource(settings: settings, transport: transport, limits: limits, cache: cache, shopList: shopList,
                                              observer: metrics.pages, logger: log.logger("recommendations"))
            let storefront = try Storefront(source: source, tracking: tracking, tokens: tokens, rendered: rendered, staticPage: staticPage,
                                            clicks: clicks, metrics: metrics, logger: log.logger("storefront"))
            let harness = Harness(vendor: vendor, storefront: storefront, log: log)
            let app = Application(router: storefront.router(), logger: Self.serverLogger)
            // The trackers deliver while the test runs, and stop (draining for a second) when it ends.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await tracking.run() }
                defer { group.cancelAll() }
                try await app.test(live ? .live : .router) { client in try await body(BrowserClient(client), harness) }
            }
        }
    }

    /// Sends every tracked event to the stand-in vendor now, and waits until each is delivered (or ten
    /// seconds have passed); what each tracker then holds.
    func deliverEverything() async -> [String: TrackingStatistics] {
        var statistics: [String: TrackingStatistics] = [:]
        for tracker in storefront.tracking.trackers {
            try? await tracker.flush()
            await tracker.waitUntilIdle(timeout: .seconds(10))
            statistics[tracker.destination.name] = tracker.statistics
        }
        return statistics
    }

    /// The Segmentify events the stand-in received, flattened from their batches.
    var segmentifyEvents: [JSONValue] { vendor.received.filter { $0.vendor == "segmentify" }.flatMap { $0.body.arrayValue ?? [] } }

    /// The Reteno event groups the stand-in received, flattened from their batches.
    var retenoGroups: [JSONValue] { vendor.received.filter { $0.vendor == "reteno" }.flatMap { $0.body["events"]?.arrayValue ?? [] } }
}

/// A page as a test reads it.
struct Page {
    let status: HTTPResponse.Status
    let html: String
    let cookies: String

    init(_ response: TestResponse) {
        status = response.status
        html = String(buffer: response.body)
        cookies = response.headers[values: .setCookie].compactMap { $0.split(separator: ";").first.map(String.init) }.joined(separator: "; ")
    }

    /// The values of an attribute, in order.
    func attribute(_ name: String) -> [String] {
        var values: [String] = []
        var rest = html[...]
        while let start = rest.range(of: " \(name)=\"") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            values.append(String(after[..<end]))
            rest = after[end...]
        }
        return values
    }

    /// The click-through links of the blocks.
    var clickLinks: [String] { attribute("href").filter { $0.hasPrefix("/r/") } }
}

/// A test client whose requests carry a desktop browser's `User-Agent` unless they name their own: the
/// storefront records nothing for a request without one (a bot, to the impression policy).
struct BrowserClient: TestClientProtocol {
    static let userAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"
    let client: any TestClientProtocol

    init(_ client: any TestClientProtocol) { self.client = client }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        if headers[.userAgent] == nil { headers[.userAgent] = Self.userAgent }
        return try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
    }

    var port: Int? { client.port }
}

extension TestClientProtocol {
    func page(_ uri: String, cookies: String? = nil) async throws -> Page {
        var headers: HTTPFields = [:]
        if let cookies { headers[.cookie] = cookies }
        return try await execute(uri: uri, method: .get, headers: headers) { Page($0) }
    }

    func beacon(_ form: String, cookies: String?) async throws -> HTTPResponse.Status {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookies { headers[.cookie] = cookies }
        return try await execute(uri: "/beacon", method: .post, headers: headers, body: ByteBuffer(string: form)) { $0.status }
    }
}
