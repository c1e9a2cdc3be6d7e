import Foundation
import Testing
import RecoPage

/// A page of several vendors rendered together and kept beside its answers: rendered once while the
/// answers are kept, never kept when a vendor failed or a request is personal.
@Suite("Rendered pages in the cache")
struct PageCacheTests {
    static func shared(_ base: URL, variant: String) throws -> RecommendationsRequest {
        let reteno = try Fixtures.reteno(base, variant: variant)
        return .reteno(reteno, title: variant, sharing: .shared(reteno.cacheKey()))
    }

    /// Renders the page's parts as "title: names; title: names", counting renders.
    static func page(_ client: RecommendationsClient, _ requests: [RecommendationsRequest], renders: Counter) async -> RenderedPage<Product> {
        await client.renderedPage(for: requests, as: Product.self, budget: Fixtures.patience, name: "list") { parts in
            renders.increment()
            let widgets = parts.allWidgets()
            let html = parts.map { part in
                part.failure.map { _ in "\(part.vendor.rawValue) failed" } ?? part.widgets.map { "\($0.title): " + $0.items.map(\.product.name).joined(separator: ",") }.joined()
            }.joined(separator: "; ")
            return RenderedPage(widgets: widgets, html: html)
        }
    }

    @Test func aPageIsRenderedOnceWhileItsAnswersAreKept() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath("r1v1"), otherwise: .init(body: Fixtures.retenoReply(prefix: "a", count: 2)))
            try await server.route(Fixtures.retenoPath("r2v2"), otherwise: .init(body: Fixtures.retenoReply(prefix: "b", count: 1)))
            let cache = RecommendationsCache(timeToLive: .seconds(3600))
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let requests = [try Self.shared(server.base, variant: "r1v1"), try Self.shared(server.base, variant: "r2v2")]
            let renders = Counter()
            let first = await Self.page(client, requests, renders: renders)
            let second = await Self.page(client, requests, renders: renders)
            #expect(first.html == "r1v1: Product 1,Product 2; r2v2: Product 1")
            #expect(!first.fromCache && second.fromCache)
            #expect(second.html == first.html)
            #expect(second.widgets.map(\.instanceId) == first.widgets.map(\.instanceId))
            #expect(renders.value == 1)
            let keys = requests.compactMap(\.cacheKey)
            #expect(client.keptPage(for: [], as: Product.self, name: "list") == nil)
            #expect(client.keptPage(for: keys, as: Product.self, name: "list")?.html == first.html, "found by its keys alone")
            #expect(client.keptPage(for: keys, as: Product.self, name: "grid") == nil, "another name is another rendering")
            #expect(client.keptPage(for: Array(keys.reversed()), as: Product.self, name: "list") == nil)
            let reversed = await Self.page(client, requests.reversed(), renders: renders)
            #expect(reversed.html == "r2v2: Product 1; r1v1: Product 1,Product 2", "another order is another page")
            #expect(renders.value == 2)
            #expect(try await server.count(Fixtures.retenoPath("r1v1")) == 1)
            #expect(try await server.count(Fixtures.retenoPath("r2v2")) == 1)
            #expect(cache.statistics.hits == 6, "two answers each: the second page, the page found by its keys, the reversed page")
        }
    }

    @Test func aKeptPageIsNotFoundByKeysOnceAnAnswerIsStale() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath("r1v1"), otherwise: .init(body: Fixtures.retenoReply(prefix: "a")))
            try await server.route(Fixtures.retenoPath("r2v2"), otherwise: .init(body: Fixtures.retenoReply(prefix: "b")))
            let time = ManualTime()
            let cache = RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .seconds(600), clock: time.clock)
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let requests = [try Self.shared(server.base, variant: "r1v1"), try Self.shared(server.base, variant: "r2v2")]
            let keys = requests.compactMap(\.cacheKey)
            _ = await Self.page(client, requests, renders: Counter())
            #expect(client.keptPage(for: keys, as: Product.self, name: "list") != nil)
            time.advance(.seconds(61))
            #expect(client.keptPage(for: keys, as: Product.self, name: "list") == nil, "stale: the requests must be built, to refresh")
        }
    }

    @Test func aKeptPageIsNotFoundByKeysOnceAnotherAnswerIsNewer() async throws {
        // The page is kept beside its first answer; a newer second answer (fetched again for a page of its
        // own) makes it out of date, though both answers are fresh.
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath("r1v1"), otherwise: .init(body: Fixtures.retenoReply(prefix: "a")))
            try await server.route(Fixtures.retenoPath("r2v2"), otherwise: .init(body: Fixtures.retenoReply(prefix: "b")))
            let time = ManualTime()
            let cache = RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .zero, clock: time.clock)
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let first = try Self.shared(server.base, variant: "r1v1"), second = try Self.shared(server.base, variant: "r2v2")
            let keys = [first, second].compactMap(\.cacheKey)
            let renders = Counter()
            _ = await Self.page(client, [second], renders: renders)                // r2v2 stored at 0 s
            time.advance(.seconds(50))
            #expect(await !Self.page(client, [first, second], renders: renders).fromCache)  // r1v1 stored at 50 s
            #expect(client.keptPage(for: keys, as: Product.self, name: "list") != nil)
            time.advance(.seconds(11))
            _ = await Self.page(client, [second], renders: renders)                // r2v2 expired: fetched again at 61 s
            #expect(try await server.count(Fixtures.retenoPath("r2v2")) == 2)
            #expect(client.keptPage(for: keys, as: Product.self, name: "list") == nil, "rendered from the older r2v2 answer")
            let again = await Self.page(client, [first, second], renders: renders)
            #expect(!again.fromCache && renders.value == 4, "rendered anew from the newer answer")
            #expect(client.keptPage(for: keys, as: Product.self, name: "list")?.html == again.html)
            #expect(try await server.count(Fixtures.retenoPath("r1v1")) == 1, "r1v1 stayed fresh throughout")
        }
    }

    @Test func aPageWithAFailedVendorIsNotKept() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath("r1v1"), otherwise: .init(body: Fixtures.retenoReply(prefix: "a")))
            try await server.route(Fixtures.retenoPath("r2v2"), [.init(status: 503, body: "outage")],
                                   otherwise: .init(body: Fixtures.retenoReply(prefix: "b")))
            let cache = RecommendationsCache(timeToLive: .seconds(3600))
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let requests = [try Self.shared(server.base, variant: "r1v1"), try Self.shared(server.base, variant: "r2v2")]
            let renders = Counter()
            let outage = await Self.page(client, requests, renders: renders)
            #expect(outage.html.hasSuffix("; reteno failed"))
            let recovered = await Self.page(client, requests, renders: renders)
            let kept = await Self.page(client, requests, renders: renders)
            #expect(!outage.fromCache && !recovered.fromCache && kept.fromCache)
            #expect(kept.html == recovered.html && !kept.html.contains("failed"))
            #expect(renders.value == 2)
            #expect(try await server.count(Fixtures.retenoPath("r1v1")) == 1, "the answer that came was kept")
            #expect(try await server.count(Fixtures.retenoPath("r2v2")) == 2)
        }
    }

    /// Pages that missed together wait on one fetch, then each renders; a rendering can differ by the
    /// moment it is made (a link that expires within the second, say). Every page is served the same
    /// HTML, whichever kept its rendering first (``RenderingKeptFirstTests`` makes the renders overlap).
    @Test func pagesThatMissedTogetherAreServedOneRendering() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath("r1v1"), [.init(body: Fixtures.retenoReply(prefix: "a"), gate: "answer")],
                                   otherwise: .init(status: 500, body: "a second request reached the vendor"))
            let cache = RecommendationsCache(timeToLive: .seconds(3600))
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let requests = [try Self.shared(server.base, variant: "r1v1")]
            let renders = Counter()
            @Sendable func page() async -> RenderedPage<Product> {
                await client.renderedPage(for: requests, as: Product.self, budget: Fixtures.patience, name: "list") { parts in
                    RenderedPage(widgets: parts.allWidgets(), html: "rendering \(renders.next())")
                }
            }
            let pages = Task { await withTaskGroup(of: RenderedPage<Product>.self) { group in
                for _ in 0..<8 { group.addTask { await page() } }
                return await group.reduce(into: [RenderedPage<Product>]()) { $0.append($1) }
            } }
            for _ in 0..<30_000 where cache.statistics.misses < 8 { try await Task.sleep(for: .milliseconds(10)) }
            try await server.open("answer")
            let served = await pages.value
            #expect(Set(served.map(\.html)).count == 1, "one rendering for every visitor: \(served.map(\.html))")
            #expect(served.filter { !$0.fromCache }.count == 1, "the page whose rendering was kept")
            #expect(client.keptPage(for: requests.compactMap(\.cacheKey), as: Product.self, name: "list")?.html == served[0].html)
        }
    }

    @Test func aPageWithAPersonalRequestIsRenderedEachTime() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath("r1v1"), otherwise: .init(body: Fixtures.retenoReply(prefix: "a")))
            try await server.route(Fixtures.retenoPath("r2v2"), otherwise: .init(body: Fixtures.retenoReply(prefix: "b")))
            let cache = RecommendationsCache(timeToLive: .seconds(3600))
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let personal = RecommendationsRequest.reteno(try Fixtures.reteno(server.base, variant: "r2v2"), title: "mine")
            let requests = [try Self.shared(server.base, variant: "r1v1"), personal]
            let renders = Counter()
            for _ in 0..<2 { #expect(await !Self.page(client, requests, renders: renders).fromCache) }
            #expect(renders.value == 2)
            #expect(try await server.count(Fixtures.retenoPath("r1v1")) == 1)
            #expect(try await server.count(Fixtures.retenoPath("r2v2")) == 2)
            #expect(cache.statistics.bypassed == 2)
        }
    }
}
