import Foundation
import Hummingbird
import RecoKit

/// A local stand-in for Segmentify and Reteno, so the storefront works with no network: it answers
/// recommendation requests with the sample payloads of `Samples/Payloads/` and records every tracking
/// event it receives (see ``received``).
///
/// | route | answers |
/// |---|---|
/// | `POST /add/events/v1.json` | a `PRODUCT_VIEW` → `segmentify-product-page.json`; a `PAGE_VIEW` → `segmentify-home-page.json`; `INTERACTION`s are recorded and answered `{"statusCode":"SUCCESS"}` |
/// | `POST /api/v1/recoms/{variant}/request` | `reteno-recoms-full.json` |
/// | `POST /api/v1/recoms/events` | recorded, `{}` |
/// | `GET /stand-in/events` | what was recorded, as JSON lines |
public final class StandInVendor: Sendable {
    /// What the stand-in received.
    public struct Received: Sendable, Hashable {
        /// `segmentify` or `reteno`.
        public var vendor: String
        /// The request path and query.
        public var uri: String
        /// The parsed body.
        public var body: JSONValue
    }

    /// How the stand-in misbehaves, to show a page surviving a slow or failing vendor.
    public struct Behaviour: Sendable, Hashable {
        /// Wait this long before answering a recommendation request.
        public var delay: Duration = .zero
        /// Answer recommendation requests with HTTP 503.
        public var failing = false
        /// Answer tracking requests with HTTP 503 (and record nothing), as a vendor in an outage would.
        public var refusingEvents = false
        /// Behave.
        public init(delay: Duration = .zero, failing: Bool = false, refusingEvents: Bool = false) {
            self.delay = delay
            self.failing = failing
            self.refusingEvents = refusingEvents
        }
    }

    let payloads: [String: Data]
    private let state = Protected(State())

    struct State {
        var received: [Received] = []
        var recommendationRequests: [String: Int] = [:]
        var behaviour = Behaviour()
    }

    /// The default payload folder: `Samples/Payloads/` of this repository.
    public static var defaultPayloads: URL {
        var folder = URL(fileURLWithPath: #filePath)  // Samples/Storefront/Sources/StorefrontKit/StandIn/StandInVendor.swift
        for _ in 0..<5 { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("Payloads", isDirectory: true)
    }

    static let files = ["segmentify-product-page.json", "segmentify-home-page.json", "reteno-recoms-full.json"]

    /// A stand-in answering from the payloads in `folder`.
    /// - Throws: when a payload file cannot be read.
    public init(payloads folder: URL = StandInVendor.defaultPayloads, behaviour: Behaviour = Behaviour()) throws {
        var payloads: [String: Data] = [:]
        for file in Self.files { payloads[file] = try Data(contentsOf: folder.appendingPathComponent(file)) }
        self.payloads = payloads
        state.withLock { $0.behaviour = behaviour }
    }

    /// How it behaves now; tests change it between requests.
    public var behaviour: Behaviour {
        get { state.withLock { $0.behaviour } }
        set { state.withLock { $0.behaviour = newValue } }
    }

    /// Every tracking request received, in order.
    public var received: [Received] { state.withLock { $0.received } }

    /// How many recommendation requests each vendor (`segmentify`, `reteno`) was sent.
    public var recommendationRequests: [String: Int] { state.withLock { $0.recommendationRequests } }

    /// The routes above, on a new router.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        addRoutes(to: router)
        return router
    }

    /// Adds the routes above to `router`.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.post("/add/events/v1.json") { request, _ -> Response in
            let body = try await self.body(of: request)
            let names = (body.arrayValue ?? [body]).compactMap { $0["name"]?.stringValue }
            if names.contains("PRODUCT_VIEW") || names.contains("PAGE_VIEW") {
                self.countRecommendationRequest("segmentify")
                if let refusal = await self.misbehave() { return refusal }
                return Self.json(self.payloads[names.contains("PRODUCT_VIEW") ? "segmentify-product-page.json" : "segmentify-home-page.json"]!)
            }
            if self.behaviour.refusingEvents { return Response(status: .serviceUnavailable) }
            self.record(Received(vendor: "segmentify", uri: request.uri.description, body: body))
            return Self.json(Data(#"{"statusCode":"SUCCESS"}"#.utf8))
        }
        router.post("/api/v1/recoms/:variant/request") { _, _ -> Response in
            self.countRecommendationRequest("reteno")
            if let refusal = await self.misbehave() { return refusal }
            return Self.json(self.payloads["reteno-recoms-full.json"]!)
        }
        router.post("/api/v1/recoms/events") { request, _ -> Response in
            if self.behaviour.refusingEvents { return Response(status: .serviceUnavailable) }
            self.record(Received(vendor: "reteno", uri: request.uri.description, body: try await self.body(of: request)))
            return Self.json(Data("{}".utf8))
        }
        router.get("/stand-in/events") { _, _ -> Response in
            let lines = self.received.map { JSONWriter.string(.object(["vendor": .string($0.vendor), "uri": .string($0.uri), "body": $0.body])) }
            return Self.json(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }

    private func record(_ received: Received) {
        state.withLock { $0.received.append(received) }
    }

    private func countRecommendationRequest(_ vendor: String) {
        state.withLock { $0.recommendationRequests[vendor, default: 0] += 1 }
    }

    private func misbehave() async -> Response? {
        let behaviour = self.behaviour
        if behaviour.delay > .zero { try? await Task.sleep(for: behaviour.delay) }
        return behaviour.failing ? Response(status: .serviceUnavailable) : nil
    }

    private func body(of request: Request) async throws -> JSONValue {
        let buffer = try await request.body.collect(upTo: 4 * 1024 * 1024)
        do {
            return try JSONValue(parsing: Data(buffer.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "\(error)")
        }
    }

    static func json(_ data: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
