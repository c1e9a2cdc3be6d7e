import Foundation
import Testing
import RecoPage
import RecoKitTesting

/// The cache against a real HTTP server: single flight, stale-while-revalidate, failures not cached,
/// eviction by bytes, personal requests passing it by, segments kept apart, rendered HTML beside.
@Suite("Recommendations cache")
struct CacheTests {
    static func shared(_ base: URL, productId: String = "240-LV09", segment: String? = nil) throws -> RecommendationsRequest {
        let reteno = try Fixtures.reteno(base, productId: productId)
        return .reteno(reteno, title: "Similar", sharing: .shared(reteno.cacheKey(segment: segment)))
    }

    @Test func a100ConcurrentMissesSendOneRequest() async throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("CacheTests.a100ConcurrentMissesSendOneRequest seed: \(seed)")
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), [.init(body: Fixtures.retenoReply(prefix: "sf"), gate: "single-flight")],
                                   otherwise: .init(status: 500, body: "a second request reached the vendor"))
            let cache = RecommendationsCache(timeToLive: .seconds(3600))
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let request = try Self.shared(server.base)
            var random = SeededRandom(seed: seed)
            let yields = (0..<100).map { _ in Int(random.next() % 8) }
            let pages = Task {
                await withTaskGroup(of: [String]?.self) { group in
                    for count in yields {
                        group.addTask {
                            for _ in 0..<count { await Task.yield() }
                            return try? await client.widgets(for: request, as: Product.self, budget: Fixtures.patience).widgets.first?.items.map(\.product.productId)
                        }
                    }
                    return await group.reduce(into: [[String]?]()) { $0.append($1) }
                }
            }
            // Every page has missed (and so joined the one fetch) before the vendor answers.
            for _ in 0..<30_000 where cache.statistics.misses < 100 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(cache.statistics.misses == 100)
            try await server.open("single-flight")
            let answers = await pages.value
            #expect(answers.count == 100)
            #expect(answers.allSatisfy { $0 == ["sf-1", "sf-2", "sf-3"] })
            #expect(try await server.count(Fixtures.retenoPath()) == 1)
            #expect(cache.statistics.joined == 99)
            #expect(cache.statistics.entries == 1)
        }
    }

    @Test func aStaleAnswerIsServedWhileOneRefreshRuns() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), [.init(body: Fixtures.retenoReply(prefix: "old"))],
                                   otherwise: .init(body: Fixtures.retenoReply(prefix: "new")))
            let time = ManualTime()
            let cache = RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .seconds(60), clock: time.clock)
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let request = try Self.shared(server.base)
            func ids() async throws -> [String] {
                try await client.widgets(for: request, as: Product.self, budget: Fixtures.patience).widgets[0].items.map(\.product.productId)
            }
            #expect(try await ids() == ["old-1", "old-2", "old-3"])
            time.advance(.seconds(30))
            #expect(try await ids() == ["old-1", "old-2", "old-3"])       // fresh
            time.advance(.seconds(40))                                      // 70 s: stale
            #expect(try await ids() == ["old-1", "old-2", "old-3"])       // served stale, refresh started
            var refreshed: [String] = []
            for _ in 0..<30_000 {
                refreshed = try await ids()
                if refreshed.first == "new-1" { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(refreshed == ["new-1", "new-2", "new-3"])
            let statistics = cache.statistics
            #expect(statistics.refreshes == 1)
            #expect(statistics.staleServed >= 1)
            #expect(statistics.misses == 1)
            #expect(try await server.count(Fixtures.retenoPath()) == 2)
            time.advance(.seconds(200))                                     // past both windows: a miss
            #expect(try await ids() == ["new-1", "new-2", "new-3"])
            #expect(cache.statistics.misses == 2)
        }
    }

    @Test func failuresAreNotCached() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), [.init(status: 503, body: "outage"), .init(body: #"{"nope":1}"#)],
                                   otherwise: .init(body: Fixtures.retenoReply(prefix: "ok")))
            let cache = RecommendationsCache(timeToLive: .seconds(3600))
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let request = try Self.shared(server.base)
            await #expect(throws: NoWidgets.self) { _ = try await client.widgets(for: request, as: Product.self, budget: Fixtures.patience) }
            await #expect(throws: NoWidgets.self) { _ = try await client.widgets(for: request, as: Product.self, budget: Fixtures.patience) }
            _ = try await client.widgets(for: request, as: Product.self, budget: Fixtures.patience)
            _ = try await client.widgets(for: request, as: Product.self, budget: Fixtures.patience)
            #expect(try await server.count(Fixtures.retenoPath()) == 3)
            #expect(cache.statistics.failuresNotCached == 2)
            #expect(cache.statistics.hits == 1)
        }
    }

    @Test func entriesAreEvictedByBytes() async throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("CacheTests.entriesAreEvictedByBytes seed: \(seed)")
        var random = SeededRandom(seed: seed)
        try await withVendorServer { server in
            let reply = Fixtures.retenoReply(prefix: "e", count: 5)
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: reply))
            let size = reply.utf8.count
            let cache = RecommendationsCache(timeToLive: .seconds(3600), maxBytes: size * 3 + size / 2)
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let products = (0..<6).map { "p\($0)-\(random.next() % 1000)" }
            for product in products.prefix(3) {
                _ = try await client.widgets(for: try Self.shared(server.base, productId: product), as: Product.self, budget: Fixtures.patience)
            }
            #expect(cache.statistics.evictions == 0)
            // Use the first again, so the second is now the least recently used.
            _ = try await client.widgets(for: try Self.shared(server.base, productId: products[0]), as: Product.self, budget: Fixtures.patience)
            _ = try await client.widgets(for: try Self.shared(server.base, productId: products[3]), as: Product.self, budget: Fixtures.patience)
            let statistics = cache.statistics
            #expect(statistics.evictions == 1)
            #expect(statistics.entries == 3)
            #expect(statistics.bytes <= cache.maxBytes)
            #expect(try await server.count(Fixtures.retenoPath()) == 4)
            _ = try await client.widgets(for: try Self.shared(server.base, productId: products[0]), as: Product.self, budget: Fixtures.patience)
            #expect(try await server.count(Fixtures.retenoPath()) == 4)     // still kept
            _ = try await client.widgets(for: try Self.shared(server.base, productId: products[1]), as: Product.self, budget: Fixtures.patience)
            #expect(try await server.count(Fixtures.retenoPath()) == 5)     // evicted, asked again
        }
    }

    @Test func personalRequestsAndOtherSegmentsDoNotShare() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: Fixtures.retenoReply(prefix: "s")))
            let cache = RecommendationsCache(timeToLive: .seconds(3600))
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let personal = RecommendationsRequest.reteno(try Fixtures.reteno(server.base))
            for _ in 0..<2 { _ = try await client.widgets(for: personal, as: Product.self, budget: Fixtures.patience) }
            #expect(try await server.count(Fixtures.retenoPath()) == 2)
            #expect(cache.statistics.bypassed == 2)
            #expect(cache.statistics.entries == 0)
            let segments = CustomerSegments([.discovery: [Segment(id: "vip", segmentationId: "s1")]])
            for segment in [nil, RecommendationsCacheKey.segment(segments), RecommendationsCacheKey.segment(segments)] {
                _ = try await client.widgets(for: try Self.shared(server.base, segment: segment), as: Product.self, budget: Fixtures.patience)
            }
            #expect(try await server.count(Fixtures.retenoPath()) == 4)
            #expect(cache.statistics.entries == 2)
        }
    }

    @Test func renderedHTMLIsKeptBesideTheAnswer() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: Fixtures.retenoReply(prefix: "h")))
            let cache = RecommendationsCache(timeToLive: .seconds(3600))
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let request = try Self.shared(server.base)
            let renders = Counter()
            func page() async throws -> RenderedRecommendations<Product> {
                try await client.rendered(for: request, as: Product.self, budget: Fixtures.patience, name: "list") { recommendations in
                    renders.increment()
                    return recommendations.widgets.flatMap(\.items).map(\.product.name).joined(separator: ", ")
                }
            }
            let first = try await page()
            let second = try await page()
            #expect(first.html == "Product 1, Product 2, Product 3")
            #expect(second.html == first.html)
            #expect(!first.htmlFromCache && second.htmlFromCache)
            #expect(second.recommendations.widgets.count == 1)
            #expect(renders.value == 1)
            #expect(cache.statistics.bytes > Fixtures.retenoReply(prefix: "h").utf8.count)
        }
    }

}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
    /// Counts one more, and gives the count.
    func next() -> Int { lock.withLock { count += 1; return count } }
}
