import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import RecoKit

/// A local stand-in for Segmentify and Reteno, so the storefront works with no network: it answers
/// recommendation requests with the sample payloads of `Samples/Payloads/` and records the tracking
/// requests it receives, bounded: it counts every one (``counts``) and keeps the most recent ones whole
/// (``received``: at most ``RecentRequests/capacity`` requests and ``RecentRequests/maxBytes`` bytes of
/// bodies), so a long run does not grow it.
///
/// | route | answers |
/// |---|---|
/// | `POST /add/events/v1.json` | a `PRODUCT_VIEW` → `segmentify-product-page.json`; a `PAGE_VIEW` → `segmentify-home-page.json`; `INTERACTION`s are recorded and answered `{"statusCode":"SUCCESS"}` |
/// | `POST /api/v1/recoms/{variant}/request` | `reteno-recoms-full.json` |
/// | `POST /api/v1/recoms/events` | recorded, `{}` |
/// | `GET /stand-in/events` | the recent requests kept, as JSON lines |
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
        /// Answer Segmentify recommendation requests with this instead of the sample payload.
        public var segmentifyReply: ScriptedReply?
        /// Answer Reteno recommendation requests with this instead of the sample payload.
        public var retenoReply: ScriptedReply?
        /// Behave.
        public init(delay: Duration = .zero, failing: Bool = false, refusingEvents: Bool = false,
                    segmentifyReply: ScriptedReply? = nil, retenoReply: ScriptedReply? = nil) {
            self.delay = delay
            self.failing = failing
            self.refusingEvents = refusingEvents
            self.segmentifyReply = segmentifyReply
            self.retenoReply = retenoReply
        }
    }

    let payloads: [String: Data]
    private let state: NIOLockedValueBox<State>

    struct State {
        var recent: RecentRequests
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
    /// It keeps at most `recentCapacity` recent tracking requests, `recentBytes` bytes of bodies in all.
    public init(payloads folder: URL = StandInVendor.defaultPayloads, behaviour: Behaviour = Behaviour(),
                recentCapacity: Int = 1_000, recentBytes: Int = 8 << 20) throws {
        var payloads: [String: Data] = [:]
        for file in Self.files { payloads[file] = try Data(contentsOf: folder.appendingPathComponent(file)) }
        self.payloads = payloads
        state = NIOLockedValueBox(State(recent: RecentRequests(capacity: recentCapacity, maxBytes: recentBytes), behaviour: behaviour))
    }

    /// How it behaves now; tests change it between requests.
    public var behaviour: Behaviour {
        get { state.withLockedValue { $0.behaviour } }
        set { state.withLockedValue { $0.behaviour = newValue } }
    }

    /// The most recent tracking requests received, oldest first (see ``RecentRequests``).
    public var received: [Received] { state.withLockedValue { $0.recent.requests } }

    /// How many tracking requests and bytes were received in all, kept or not.
    public var counts: RecentRequests.Counts { state.withLockedValue { $0.recent.counts } }

    /// How many recommendation requests each vendor (`segmentify`, `reteno`) was sent.
    public var recommendationRequests: [String: Int] { state.withLockedValue { $0.recommendationRequests } }

    /// The routes above, on a new router.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        addRoutes(to: router)
        return router
    }

    /// Adds the routes above to `router`.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.post("/add/events/v1.json") { request, _ -> Response in
            let (body, size) = try await self.body(of: request)
            let names = (body.arrayValue ?? [body]).compactMap { $0["name"]?.stringValue }
            if names.contains("PRODUCT_VIEW") || names.contains("PAGE_VIEW") {
                self.countRecommendationRequest("segmentify")
                if let refusal = await self.misbehave() { return refusal }
                if let scripted = self.behaviour.segmentifyReply { return scripted.response() }
                return Self.json(self.payloads[names.contains("PRODUCT_VIEW") ? "segmentify-product-page.json" : "segmentify-home-page.json"]!)
            }
            if self.behaviour.refusingEvents { return Response(status: .serviceUnavailable) }
            self.record(Received(vendor: "segmentify", uri: request.uri.description, body: body), bytes: size)
            return Self.json(Data(#"{"statusCode":"SUCCESS"}"#.utf8))
        }
        router.post("/api/v1/recoms/:variant/request") { _, _ -> Response in
            self.countRecommendationRequest("reteno")
            if let refusal = await self.misbehave() { return refusal }
            if let scripted = self.behaviour.retenoReply { return scripted.response() }
            return Self.json(self.payloads["reteno-recoms-full.json"]!)
        }
        router.post("/api/v1/recoms/events") { request, _ -> Response in
            if self.behaviour.refusingEvents { return Response(status: .serviceUnavailable) }
            let (body, size) = try await self.body(of: request)
            self.record(Received(vendor: "reteno", uri: request.uri.description, body: body), bytes: size)
            return Self.json(Data("{}".utf8))
        }
        router.get("/stand-in/events") { _, _ -> Response in
            let lines = self.received.map { JSONWriter.string(.object(["vendor": .string($0.vendor), "uri": .string($0.uri), "body": $0.body])) }
            return Self.json(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }

    private func record(_ received: Received, bytes: Int) {
        state.withLockedValue { $0.recent.append(received, bytes: bytes) }
    }

    private func countRecommendationRequest(_ vendor: String) {
        state.withLockedValue { $0.recommendationRequests[vendor, default: 0] += 1 }
    }

    private func misbehave() async -> Response? {
        let behaviour = self.behaviour
        if behaviour.delay > .zero { try? await Task.sleep(for: behaviour.delay) }
        return behaviour.failing ? Response(status: .serviceUnavailable) : nil
    }

    private func body(of request: Request) async throws -> (JSONValue, Int) {
        let buffer = try await request.body.collect(upTo: 4 * 1024 * 1024)
        do {
            return (try JSONValue(parsing: Data(buffer.readableBytesView)), buffer.readableBytes)
        } catch {
            throw HTTPError(.badRequest, message: "\(error)")
        }
    }

    static func json(_ data: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
