import Foundation
import Testing
import RecoPage
import RecoTemplates

/// A block through every step of the fallback chain (fresh, cached, stale-while-revalidate,
/// stale-if-error, the shop's list, none) against the stand-in vendor failing on cue, with the cache's
/// clock moved by hand; what the page observer is told at each step.
@Suite("Fallback chain")
struct FallbackChainTests {
    static let bestSellers = ShopList(name: "best-sellers", title: "Our best sellers", products: [
        try! RawProduct(fields: ["productId": "shop-1", "name": "Shop one", "price": 12]),
        try! RawProduct(fields: ["productId": "shop-2", "name": "Shop two", "price": 34]),
    ])

    static func shared(_ base: URL, variant: String = "r1105v1480", fallback: [ShopList] = [bestSellers]) throws -> RecommendationsRequest {
        let reteno = try Fixtures.reteno(base, variant: variant)
        return .reteno(reteno, title: "Similar", sharing: .shared(reteno.cacheKey()), fallback: fallback)
    }

    @Test func aBlockGoesThroughEveryStepAndTheObserverSeesEachOne() async throws {
        try await withVendorServer { server in
            let path = Fixtures.retenoPath()
            let (first, second) = (Fixtures.retenoReply(prefix: "a"), Fixtures.retenoReply(prefix: "b"))
            try await server.route(path, [
                .init(body: first),                                   // the first page: fresh
                .init(status: 503, body: "down"),                     // the refresh, stale-while-revalidate
                .init(body: #"{"nope":1}"#),                          // stale-if-error: an answer that does not decode
                .init(status: 503, body: "slow", gate: "slow"),       // stale-if-error: no answer within the budget
                .init(status: 503, body: "down"),                     // past every window: the shop's list
                .init(status: 503, body: "down"),                     // no list given: none
                .init(body: second),                                  // back: fresh
            ], otherwise: .init(status: 500, body: "a request the script did not expect"))
            let time = ManualTime()
            let cache = RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .seconds(60), staleIfError: .seconds(3600),
                                             clock: time.clock)
            let observer = RecordingObserver()
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience, observer: observer)
            let request = try Self.shared(server.base)
            func part(_ request: RecommendationsRequest, budget: Duration = Fixtures.patience) async -> VendorWidgets<Product> {
                await client.widgets(for: [request], as: Product.self, budget: budget)[0]
            }
            func ids(_ part: VendorWidgets<Product>) -> [String] { part.widgets.flatMap(\.items).map(\.product.productId) }

            let fresh = await part(request)
            #expect(fresh.served.step == .fresh && ids(fresh) == ["a-1", "a-2", "a-3"] && fresh.failure == nil)
            #expect(try await observer.next(3) == ["cache missed reteno", "answered reteno ok \(first.utf8.count) bytes shared", "served reteno fresh"])

            time.advance(.seconds(30))
            let cached = await part(request)
            #expect(cached.served.step == .cached && ids(cached) == ["a-1", "a-2", "a-3"] && cached.served.age == .seconds(30))
            #expect(try await observer.next(1) == ["served reteno cached"])

            time.advance(.seconds(60))                                                     // 90 s: stale, refreshed in the background
            let stale = await part(request)
            #expect(stale.served.step == .staleWhileRevalidate && ids(stale) == ["a-1", "a-2", "a-3"])
            // The refresh answers on its own task, so its line may come before or after the page's.
            #expect(Set(try await observer.next(2)) == ["served reteno stale_while_revalidate", "answered reteno http_status 4 bytes shared"])

            time.advance(.seconds(110))                                                    // 200 s: past both, within stale-if-error
            let undecodable = await part(request)
            #expect(undecodable.served.step == .staleIfError && ids(undecodable) == ["a-1", "a-2", "a-3"])
            #expect(undecodable.failure?.kind == .decodingFailed && undecodable.served.age == .seconds(200))
            #expect(try await observer.next(3) == ["cache missed reteno", "answered reteno decoding_failed 10 bytes shared",
                                                   "served reteno stale_if_error after fresh"])

            let slow = await part(request, budget: .milliseconds(200))
            #expect(slow.served.step == .staleIfError && ids(slow) == ["a-1", "a-2", "a-3"] && slow.failure?.kind == .outOfBudget)
            #expect(try await observer.next(3) == ["cache missed reteno", "budget missed reteno \(Duration.milliseconds(200))",
                                                   "served reteno stale_if_error after fresh"])
            try await server.open("slow")                                                  // the shared fetch goes on, and ends
            #expect(try await observer.next(1) == ["answered reteno http_status 4 bytes shared"])

            time.advance(.seconds(3500))                                                   // 3,700 s: past every window
            let shop = await part(request)
            #expect(shop.served.step == .shopFallback && ids(shop) == ["shop-1", "shop-2"])
            #expect(shop.widgets.map(\.vendor) == [.shop] && shop.widgets.map(\.instanceId) == ["shop:best-sellers"])
            #expect(shop.widgets.first?.title == "Our best sellers" && shop.widgets.first?.isShopBlock == true)
            #expect(shop.failure?.status == 503, "the vendor's outage stays in sight under its fallback")
            #expect(shop.served.passedOver.map(\.step) == [.fresh, .staleIfError])
            #expect(shop.served.passedOver.dropFirst().first?.reason.contains("3700 s old") == true)
            #expect(try await observer.next(3) == ["cache missed reteno", "answered reteno http_status 4 bytes shared",
                                                   "served reteno shop_fallback after fresh,stale_if_error"])

            let none = await part(try Self.shared(server.base, fallback: []))
            #expect(none.served.step == .none && none.widgets.isEmpty && none.failure?.status == 503)
            #expect(none.served.passedOver.map(\.description) == ["fresh (reteno: answered HTTP 503: down)",
                                                                  "stale-if-error (no answer kept)", "shop fallback (no shop list given)"])
            #expect(try await observer.next(3) == ["cache missed reteno", "answered reteno http_status 4 bytes shared",
                                                   "served reteno none after fresh,stale_if_error,shop_fallback"])

            let back = await part(request)
            #expect(back.served.step == .fresh && ids(back) == ["b-1", "b-2", "b-3"])
            #expect(try await observer.next(3) == ["cache missed reteno", "answered reteno ok \(second.utf8.count) bytes shared", "served reteno fresh"])

            #expect(observer.lines.count == 22, "\(observer.lines)")
            #expect(observer.durations.count == 7 && observer.durations.allSatisfy { $0 >= .zero && $0 < Fixtures.patience })
            #expect(try await server.count(path) == 7)
            #expect(cache.statistics.staleIfErrorServed == 2)
        }
    }

    /// The storefront's case: an outage longer than every window leaves the page with the shop's block,
    /// rendered with the same template, marked as the shop's own.
    @Test func anOutageLongerThanEveryWindowLeavesThePageWithTheShopsBlock() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), [.init(body: Fixtures.retenoReply(prefix: "a"))], otherwise: .init(status: 503, body: "outage"))
            let time = ManualTime()
            let cache = RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .seconds(240), staleIfError: .seconds(3600),
                                             clock: time.clock)
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let request = try Self.shared(server.base)
            let renderer = WidgetRenderer()
            func page() async throws -> RenderedPage<Product> {
                try await client.renderedPage(for: [request], as: Product.self, budget: Fixtures.patience, name: "carousel") { parts in
                    RenderedPage(widgets: parts.allWidgets(), html: try renderer.render(parts.allWidgets(), template: "carousel"))
                }
            }
            var steps: [ServedBlock.Step] = []
            // Each minute for five hours, the vendor down from the second minute on.
            for minute in 0..<300 {
                let shown = try await page()
                steps.append(shown.served[0].step)
                // The first page without a block ends the walk: the minutes after it would say the same.
                guard !shown.widgets.isEmpty, !shown.html.isEmpty else {
                    Issue.record("minute \(minute): no block: \(shown.served)")
                    return
                }
                // A background refresh ends on its own task: wait until every fetch but the first has
                // failed, so the next minute's page sees what it left, as a page a minute later would.
                var settled = false
                for _ in 0..<6000 {
                    let statistics = cache.statistics
                    if statistics.failuresNotCached == statistics.refreshes + statistics.misses - 1 { settled = true; break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                guard settled else {
                    Issue.record("minute \(minute): the vendor's fetches did not all end: \(cache.statistics)")
                    return
                }
                time.advance(.seconds(60))
            }
            // Fresh at 0; stale while revalidated at 1 to 4 minutes (before 60 + 240 s); the kept answer
            // from 5 to 60 (before 60 + 3,600 s); the shop's list from 61 on.
            #expect(steps == [.fresh] + Array(repeating: .staleWhileRevalidate, count: 4) + Array(repeating: .staleIfError, count: 56)
                    + Array(repeating: .shopFallback, count: 239))
            let last = try await page()
            #expect(last.html.contains(#"data-reco-vendor="shop""#))
            #expect(last.html.contains(#"data-reco-instance-id="shop:best-sellers""#))
            #expect(last.html.contains("Shop one") && last.html.contains("Our best sellers"))
            #expect(!last.fromCache, "a page of the shop's list is not kept")
        }
    }

    @Test func aPersonalRequestGoesFromTheVendorToTheShopsList() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(status: 500, body: "oops"))
            let observer = RecordingObserver()
            let client = RecommendationsClient(cache: RecommendationsCache(timeToLive: .seconds(60), staleIfError: .seconds(3600)), observer: observer)
            let request = RecommendationsRequest.reteno(try Fixtures.reteno(server.base), fallback: [Self.bestSellers])
            let products = try await client.widgets(for: request, as: Product.self, budget: Fixtures.patience)
            #expect(products.widgets.map(\.instanceId) == ["shop:best-sellers"])
            #expect(observer.lines == ["answered reteno http_status 4 bytes", "served reteno shop_fallback after fresh,stale_if_error"])
            let parts = await client.widgets(for: [request], as: Product.self, budget: Fixtures.patience)
            #expect(parts.first?.served.passedOver.dropFirst().first?.reason == "the request is personal: its answers are never kept")
        }
    }

    @Test func theShopsListIsDecodedWithTheSameFieldsAndFilters() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(status: 503, body: "down"))
            let client = RecommendationsClient()
            let list = ShopList(name: "top", title: "Top", products: [
                try RawProduct(fields: ["productId": "s-1", "name": "Kept", "price": 5, "brand": "Asics"]),
                try RawProduct(fields: ["productId": "s-2", "name": "Filtered", "price": 6, "brand": "Other"]),
                try RawProduct(fields: ["productId": "s-3", "price": 7, "brand": "Asics"]),          // no name: does not decode
            ])
            let request = RecommendationsRequest.reteno(try Fixtures.reteno(server.base), fallback: [list])
            let part = await client.widgets(for: [request], as: Product.self, filters: [ProductFilter(name: "brand", values: ["Asics"])],
                                            budget: Fixtures.patience)[0]
            #expect(part.served.step == .shopFallback)
            #expect(part.widgets.flatMap(\.items).map(\.product.productId) == ["s-1"])
            let report = try part.result.get().report
            #expect(report.failures.map(\.productId) == ["s-3"], "a product of the shop's list that does not decode is reported")
            #expect(report.failures.first?.path.description == "$[2].name" && report.failures.first?.index == 2)

            let nothing = ShopList(name: "none", title: "None", products: [try RawProduct(fields: ["productId": "s-9", "brand": "Other"])])
            let empty = await client.widgets(for: [RecommendationsRequest.reteno(try Fixtures.reteno(server.base), fallback: [nothing])],
                                             as: Product.self, filters: [ProductFilter(name: "brand", values: ["Asics"])], budget: Fixtures.patience)[0]
            #expect(empty.served.step == .none)
            #expect(empty.served.passedOver.last?.reason.hasPrefix("no product of the shop's lists decoded: notice: ") == true)
        }
    }

    @Test func anAnswerEvictedIsNotServedIfError() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath("r1v1"), [.init(body: Fixtures.retenoReply(prefix: "a"))], otherwise: .init(status: 503, body: "down"))
            try await server.route(Fixtures.retenoPath("r2v2"), [.init(body: Fixtures.retenoReply(prefix: "b"))], otherwise: .init(status: 503, body: "down"))
            let time = ManualTime()
            let cache = RecommendationsCache(timeToLive: .seconds(60), staleIfError: .seconds(3600), maxEntries: 1, clock: time.clock)
            let client = RecommendationsClient(cache: cache, sharedFetchTimeout: Fixtures.patience)
            let (one, two) = (try Self.shared(server.base, variant: "r1v1", fallback: []), try Self.shared(server.base, variant: "r2v2", fallback: []))
            _ = await client.widgets(for: [one], as: Product.self, budget: Fixtures.patience)
            _ = await client.widgets(for: [two], as: Product.self, budget: Fixtures.patience)   // evicts the first: one entry at most
            time.advance(.seconds(120))
            let first = await client.widgets(for: [one], as: Product.self, budget: Fixtures.patience)[0]
            let second = await client.widgets(for: [two], as: Product.self, budget: Fixtures.patience)[0]
            #expect(first.served.step == .none && first.served.passedOver.dropFirst().first?.reason == "no answer kept")
            #expect(second.served.step == .staleIfError, "\(second.served)")
            #expect(cache.statistics.entries <= 1 && cache.statistics.evictions >= 1)
        }
    }
}
