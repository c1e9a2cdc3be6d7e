import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RecoDestinations
import RecoHTTP
import HTTPStandIn
import InMemoryTracing
import RecoKitAsyncHTTPClient
import RecoKitTesting
import RecoTracking
import Testing

@Suite("AsyncHTTPClientTransport: redirects, bounds, delivery")
struct AsyncHTTPClientTransportTests {
    static let events = VendorRequest(url: URL(string: "http://127.0.0.1:9/add/events")!,
                                      headers: [("Content-Type", "application/json"), ("X-Reteno-Access-Key", "secret-key")],
                                      body: Data(#"[{"name":"INTERACTION","type":"click"}]"#.utf8))

    static func request(to base: URL, path: String = "/add/events") -> VendorRequest {
        var request = events
        request.url = base.appendingPathComponent(path)
        return request
    }

    /// Every 3xx is the answer: nothing is sent to where it points, on another port or the same one, with
    /// or without the body, and the vendor's key header goes nowhere else.
    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectIsTheAnswerAndNothingGoesWhereItPoints(code: Int) async throws {
        let elsewhere = try StandIn { _ in StandIn.Reply(status: 200, body: Array(#"{"statusCode":"SUCCESS"}"#.utf8)) }
        defer { elsewhere.stop() }
        let vendor = try StandIn { request in
            let target = request.uri.hasPrefix("/loop") ? "/loop" : elsewhere.base.appendingPathComponent("/collect").absoluteString
            return StandIn.Reply(status: code, headers: [("Location", target)])
        }
        defer { vendor.stop() }
        let transport = AsyncHTTPClientTransport.shared
        let reply = try await transport.send(Self.request(to: vendor.base), timeout: .seconds(10))
        #expect(reply.status == code)
        #expect(reply.headers["location"]?.hasSuffix("/collect") == true)
        #expect(elsewhere.requests.isEmpty, "sent on to \(elsewhere.requests.map(\.uri))")
        #expect(vendor.requests.count == 1)
        // A loop on the same server is one request too.
        let looping = try await transport.send(Self.request(to: vendor.base, path: "/loop"), timeout: .seconds(10))
        #expect(looping.status == code)
        #expect(vendor.requests.count == 2)
        #expect(DeliveryVerdict.standard(for: reply, now: Date()).description.contains("redirects"))
    }

    /// A client configured to follow redirects is made not to: the transport's own rule holds.
    @Test func aConfigurationThatFollowsRedirectsIsOverruled() async throws {
        let elsewhere = try StandIn { _ in StandIn.Reply(status: 200) }
        defer { elsewhere.stop() }
        let vendor = try StandIn { _ in StandIn.Reply(status: 307, headers: [("Location", elsewhere.base.absoluteString + "/x")]) }
        defer { vendor.stop() }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .follow(max: 10, allowCycles: true)
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let reply = try await transport.send(Self.request(to: vendor.base), timeout: .seconds(10))
        try await transport.shutdown()
        #expect(reply.status == 307)
        #expect(elsewhere.requests.isEmpty)
    }

    /// A body announced or streamed past the limit is given up as `replyTooLarge`, whatever the length
    /// says (one that rounds to 2^63 as a Double included); a length that is no number is the HTTP
    /// parser's error. Never a crash, never the body read whole.
    @Test(arguments: [nil, "9223372036854775807", "9223372036854775808", "18446744073709551615", "99999999999999999999999"])
    func aReplyPastTheLimitIsGivenUp(announced: String?) async throws {
        let vendor = try StandIn { _ in
            StandIn.Reply(status: 200, body: Array(repeating: UInt8(ascii: "a"), count: 300_000), pieces: 10, announcedLength: announced)
        }
        defer { vendor.stop() }
        var request = Self.request(to: vendor.base)
        request.maxReplyBytes = 100_000
        await #expect {
            _ = try await AsyncHTTPClientTransport.shared.send(request, timeout: .seconds(10))
        } throws: { error in
            (error as? TransportError)?.kind == .replyTooLarge || (announced?.count ?? 0) > 20 && error is HTTPParserError
        }
    }

    /// The timeout bounds the whole exchange: a body that trickles in a piece at a time, each well within
    /// any idle timeout, ends at the request's timeout.
    /// The transport turns off only AsyncHTTPClient's no-op tracer: a tracer the caller gives sees each
    /// request as a span named by its method, with the reply's status.
    @Test func aTracerGivenSeesEachRequest() async throws {
        let vendor = try StandIn { _ in StandIn.Reply(status: 202) }
        defer { vendor.stop() }
        let tracer = InMemoryTracer()
        var configuration = HTTPClient.Configuration()
        configuration.tracing.tracer = tracer
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        for _ in 0..<2 {
            #expect(try await transport.send(Self.request(to: vendor.base), timeout: .seconds(10)).status == 202)
        }
        try await transport.shutdown()
        #expect(tracer.finishedSpans.map(\.operationName) == ["POST", "POST"])
        #expect(tracer.finishedSpans.allSatisfy { $0.attributes["http.status_code"]?.toSpanAttribute() == .int64(202) })
    }

    @Test func aTricklingBodyEndsAtTheTimeout() async throws {
        let vendor = try StandIn { _ in
            StandIn.Reply(status: 200, body: Array(repeating: UInt8(ascii: "a"), count: 600), pieces: 600, pause: .milliseconds(50))
        }
        defer { vendor.stop() }
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await AsyncHTTPClientTransport.shared.send(Self.request(to: vendor.base), timeout: .milliseconds(500))
        }
    }

    /// A tracker over this transport against a vendor that fails in every way it can (seeded): every event
    /// delivered, none dead-lettered, every fault met.
    @Test func aTrackerOverItDeliversEverythingWhateverTheVendorDoes() async throws {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_TRANSPORT_FAULT_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("AsyncHTTPClientTransportTests: seed \(seed) (RECOKIT_TRANSPORT_FAULT_SEED=\(seed) replays it)")
        let vendor = try FaultyVendor(seed: seed, faultsFirst: true)
        defer { vendor.stop() }
        var configuration = TrackerConfiguration()
        configuration.requestTimeout = .seconds(1)
        configuration.flushInterval = .milliseconds(20)
        configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100),
                                                configurationDelay: .milliseconds(100))
        let tracker = Tracker(destination: SegmentifyDestination(dataCenter: vendor.baseURL, apiKey: "k", origin: "shop.example"),
                              store: JournalStore.memory(), configuration: configuration, transport: AsyncHTTPClientTransport.shared)
        let context = InteractionContext(userId: "u1", sessionId: "s1")
        let ids = try await whileRunning(tracker) {
            let ids = try (1...200).map { number in
                try tracker.track(Interaction(kind: .click, instanceId: "rec_1", interactionId: "act_1", productId: "P-\(number)",
                                              context: context)).description
            }
            try await tracker.flush()
            #expect(await tracker.waitUntilIdle(timeout: .seconds(120)), "seed \(seed)")
            return ids
        }
        #expect(vendor.unconfirmed(ids).isEmpty, "seed \(seed): \(vendor.answersInWords)")
        #expect(vendor.faultsNotMet.isEmpty, "seed \(seed)")
        #expect(tracker.statistics.deadLettered == 0, "seed \(seed)")
    }
}
