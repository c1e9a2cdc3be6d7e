import Foundation
import HTTPStandIn
import MetricsTestKit
import NIOCore
import RecoKitMetrics
import RecoPage
import Testing

/// A product as a shop's page decodes it.
struct PageProduct: RecommendableProduct {
    let productId: String
    let name: String
}

/// A clock the test moves by hand, for the cache's windows.
final class ManualTime: @unchecked Sendable {
    private let lock = NSLock()
    private var now = Duration.zero
    var clock: CacheClock { CacheClock { [self] in lock.withLock { now } } }
    func advance(_ by: Duration) { lock.withLock { now += by } }
}

@Suite("PageMetrics: a page's blocks through swift-metrics")
struct PageMetricsTests {
    /// A vendor on 127.0.0.1 whose mood the test sets: up, down (503), refusing (403), slow (its body
    /// held back for seconds).
    final class MoodyVendor: @unchecked Sendable {
        enum Mood { case up, down, refusing, slow }
        private let lock = NSLock()
        private var current = Mood.up
        var mood: Mood {
            get { lock.withLock { current } }
            set { lock.withLock { current = newValue } }
        }
        static let reply = Array(#"{"recoms":[{"productId":"a-1","name":"One"},{"productId":"a-2","name":"Two"}]}"#.utf8)
        static let down = Array("down".utf8)
        static let refusal = Array(#"{"error":"invalid access key"}"#.utf8)

        func answer(_ request: StandIn.Request) -> StandIn.Reply {
            switch mood {
            case .up: StandIn.Reply(status: 200, headers: [("Content-Type", "application/json")], body: Self.reply)
            case .down: StandIn.Reply(status: 503, body: Self.down)
            case .refusing: StandIn.Reply(status: 403, body: Self.refusal)
            case .slow: StandIn.Reply(status: 200, body: Self.reply, pieces: 2, pause: .seconds(3))
            }
        }
    }

    static let bestSellers = ShopList(name: "best-sellers", title: "Our best sellers",
                                      products: [try! RawProduct(fields: ["productId": "shop-1", "name": "Shop one"])])

    /// Waits until `condition` holds (an answer is observed on the fetch's own task), for a minute at most.
    func eventually(_ condition: () throws -> Bool) async throws {
        for _ in 0..<6000 where try !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func aScriptedRunReadsBackAsItHappened() async throws {
        let backend = TestMetrics()
        let vendor = MoodyVendor()
        let server = try StandIn { vendor.answer($0) }
        defer { server.stop() }
        let time = ManualTime()
        let cache = RecommendationsCache(timeToLive: .seconds(60), staleIfError: .seconds(3600), clock: time.clock)
        let client = RecommendationsClient(cache: cache, sharedFetchTimeout: .seconds(300), observer: PageMetrics(factory: backend))
        let recoms = try RetenoRecomsRequest(variantId: RetenoVariantId("r1105v1480"), accessKey: "k", productIds: ["p-1"], baseURL: server.base)
        let shared = RecommendationsRequest.reteno(recoms, sharing: .shared(recoms.cacheKey()), fallback: [Self.bestSellers])
        let personal = RecommendationsRequest.reteno(recoms, fallback: [Self.bestSellers])
        func page(_ request: RecommendationsRequest, budget: Duration = .seconds(300)) async -> ServedBlock.Step {
            await client.widgets(for: [request], as: PageProduct.self, budget: budget)[0].served.step
        }
        let reteno = [("vendor", "reteno")]
        func count(_ label: String, _ extra: [(String, String)] = []) -> Int64 {
            (try? backend.expectCounter("recokit_page_\(label)", reteno + extra).totalValue) ?? 0
        }
        func served(_ step: String) -> Int64 { count("blocks_served_total", [("step", step)]) }
        func answers(_ outcome: String) -> Int64 { count("vendor_answers_total", [("outcome", outcome)]) }
        func durations(_ outcome: String) -> [Int64] {
            (try? backend.expectTimer("recokit_page_vendor_request_duration_seconds", reteno + [("outcome", outcome)]).values) ?? []
        }

        // Up: a cache miss, an answer, a fresh block; then a cache hit.
        #expect(await page(shared) == .fresh)
        try await eventually { answers("ok") == 1 }
        #expect(count("cache_misses_total", [("joined", "false")]) == 1 && served("fresh") == 1)
        #expect(count("vendor_received_bytes_total") == Int64(MoodyVendor.reply.count))
        #expect(durations("ok").count == 1)
        time.advance(.seconds(30))
        #expect(await page(shared) == .cached)
        #expect(served("cached") == 1 && count("cache_misses_total", [("joined", "false")]) == 1)

        // Down: past the time to live, the vendor fails and the kept answer stands in.
        vendor.mood = .down
        time.advance(.seconds(100))
        #expect(await page(shared) == .staleIfError)
        try await eventually { answers("http_status") == 1 }
        #expect(served("stale_if_error") == 1 && count("cache_misses_total", [("joined", "false")]) == 2)

        // Refusing, past every window: the shop's list.
        vendor.mood = .refusing
        time.advance(.seconds(3600))
        #expect(await page(shared) == .shopFallback)
        try await eventually { answers("http_status") == 2 }
        #expect(served("shop_fallback") == 1 && count("cache_misses_total", [("joined", "false")]) == 3)
        #expect(count("vendor_received_bytes_total") == Int64(MoodyVendor.reply.count + MoodyVendor.down.count + MoodyVendor.refusal.count))
        #expect(durations("http_status").count == 2)

        // Slow: a page's own request ends at its budget, which is missed; the shop's list again.
        vendor.mood = .slow
        #expect(await page(personal, budget: .milliseconds(100)) == .shopFallback)
        try await eventually { answers("out_of_budget") == 1 }
        #expect(count("budget_misses_total") == 1 && served("shop_fallback") == 2)
        #expect(durations("out_of_budget").allSatisfy { $0 >= 100_000_000 } && durations("out_of_budget").count == 1)

        // Nothing else was counted: no block was lost, no other outcome seen.
        #expect(served("none") == 0 && served("stale_while_revalidate") == 0 && answers("ok") == 1)
        let labels = Set(backend.counters.map(\.label))
        #expect(labels == ["recokit_page_vendor_answers_total", "recokit_page_vendor_received_bytes_total", "recokit_page_budget_misses_total",
                           "recokit_page_cache_misses_total", "recokit_page_blocks_served_total"])
        #expect(backend.counters.allSatisfy { $0.dimensions.first.map { $0 == ("vendor", "reteno") } == true })
    }
}
