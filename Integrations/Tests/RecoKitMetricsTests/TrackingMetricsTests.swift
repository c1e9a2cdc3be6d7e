import Foundation
import MetricsTestKit
import RecoKitMetrics
import RecoKitTesting
import RecoTracking
import Testing

/// A transport that plays a vendor by script: up, then down (no answer at all), then refusing one product,
/// then slow, then up.
final class ScriptedVendor: Transport, @unchecked Sendable {
    enum Mood { case up, down, refusing(String), slow(Duration) }
    private let lock = NSLock()
    private var current = Mood.up
    var mood: Mood {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    struct Down: Error {}

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        switch mood {
        case .up:
            return VendorReply(status: 200)
        case .down:
            throw Down()
        case .refusing(let product):
            let body = String(decoding: request.body, as: UTF8.self)
            return body.contains(product) ? VendorReply(status: 400, body: Data("bad product \(product)".utf8)) : VendorReply(status: 200)
        case .slow(let pause):
            try await Task.sleep(for: pause)
            return VendorReply(status: 200)
        }
    }
}

/// A destination whose body is the events' product ids, one a line.
struct ProductsDestination: TrackingDestination {
    var name: String { "shop" }
    var limits: DestinationLimits { DestinationLimits(maxEvents: 10, maxBytes: 1 << 20) }
    func validate(_ interaction: Interaction) throws(InteractionError) {
        if interaction.productId == "invalid" { throw .unsupported("no such product") }
    }
    func request(for records: [EventRecord]) -> VendorRequest {
        VendorRequest(url: URL(string: "http://127.0.0.1:9/events")!, headers: [],
                      body: Data(records.compactMap { $0.string(.productId) }.joined(separator: "\n").utf8))
    }
}

@Suite("TrackingMetrics: a tracker's figures through swift-metrics")
struct TrackingMetricsTests {
    func click(_ product: String) -> Interaction {
        Interaction(kind: .click, instanceId: "rec_1", interactionId: "act_1", productId: product,
                    context: InteractionContext(userId: "u", sessionId: "s"))
    }

    @Test func aScriptedRunReadsBackAsItHappened() async throws {
        let backend = TestMetrics()
        let metrics = TrackingMetrics(interval: .seconds(3600), factory: backend)
        let vendor = ScriptedVendor()
        var configuration = TrackerConfiguration()
        configuration.observer = metrics
        configuration.flushInterval = .milliseconds(10)
        configuration.maxConcurrentRequests = 1
        configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
                                                configurationDelay: .milliseconds(20))
        let tracker = Tracker(destination: ProductsDestination(), store: JournalStore.memory(), configuration: configuration, transport: vendor)
        metrics.watch(tracker)
        let dimensions = [("destination", "shop")]

        try await whileRunning(tracker) {
            // Up: 10 events, delivered.
            for number in 1...10 { try tracker.track(click("P-\(number)")) }
            #expect(throws: TrackingError.self) { try tracker.track(click("invalid")) }
            #expect(await tracker.waitUntilIdle(timeout: .seconds(30)))
            metrics.update()
            #expect(try backend.expectCounter("recokit_tracking_events_accepted_total", dimensions).totalValue == 10)
            #expect(try backend.expectCounter("recokit_tracking_events_delivered_total", dimensions).totalValue == 10)
            #expect(try backend.expectCounter("recokit_tracking_events_refused_total", dimensions + [("reason", "invalid")]).totalValue == 1)
            #expect(try backend.expectGauge("recokit_tracking_pending_events", dimensions).lastValue == 0)

            // Down: 5 events wait, delivery pauses, the oldest pending event ages.
            vendor.mood = .down
            for number in 11...15 { try tracker.track(click("P-\(number)")) }
            while tracker.statistics.retried == 0 { try await Task.sleep(for: .milliseconds(5)) }
            metrics.update()
            #expect(try backend.expectGauge("recokit_tracking_pending_events", dimensions).lastValue == 5)
            #expect(try backend.expectGauge("recokit_tracking_delivery_paused", dimensions).lastValue == 1)
            #expect(try backend.expectCounter("recokit_tracking_events_retried_total", dimensions).totalValue >= 1)
            let retries = backend.timers.filter { $0.label == "recokit_tracking_request_duration_seconds" && $0.dimensions.contains { $0 == ("outcome", "retry") } }
            #expect(retries.first.map { !$0.values.isEmpty } == true)

            // Refusing one product: bisected, that one dead-lettered, the rest delivered.
            vendor.mood = .refusing("P-13")
            #expect(await tracker.waitUntilIdle(timeout: .seconds(30)))
            metrics.update()
            #expect(try backend.expectCounter("recokit_tracking_events_dead_lettered_total", dimensions).totalValue == 1)
            #expect(try backend.expectCounter("recokit_tracking_events_delivered_total", dimensions).totalValue == 14)
            #expect(try backend.expectGauge("recokit_tracking_delivery_paused", dimensions).lastValue == 0)

            // Slow: the request's time is recorded with its outcome.
            vendor.mood = .slow(.milliseconds(50))
            try tracker.track(click("P-16"))
            #expect(await tracker.waitUntilIdle(timeout: .seconds(30)))
            metrics.update()
            let delivered = try #require(backend.timers.first { $0.label == "recokit_tracking_request_duration_seconds"
                    && $0.dimensions.contains { $0 == ("outcome", "delivered") } })
            #expect(delivered.values.contains { $0 >= 50_000_000 })
            let sizes = try backend.expectRecorder("recokit_tracking_batch_events", dimensions)
            #expect(sizes.values.contains(10) && sizes.values.contains(1))
        }
    }
}
