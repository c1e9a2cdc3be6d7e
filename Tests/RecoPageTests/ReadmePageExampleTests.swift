import Foundation
import Testing
import RecoPage
import RecoTemplates

// README begin
struct Shoe: RecommendableProduct { let productId: String; let name: String }

struct ProductPage {
    var client = RecommendationsClient(cache: RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .seconds(240)))
    let gate: ImpressionGate                     // ImpressionGate(tracker: tracker, initialConsent: .pending)
    var reteno = RetenoRecomsRequest.defaultBaseURL

    func blocks(productId: String, cookie: String, visitor: InteractionContext, headers: [(name: String, value: String)]) async throws -> String {
        let recoms = try RetenoRecomsRequest(variantId: RetenoVariantId("r1105v1480"), accessKey: "KEY", productIds: [productId], baseURL: reteno)
        let request = RecommendationsRequest.reteno(recoms, title: "Similar products", sharing: .shared(recoms.cacheKey()))
        guard let products = try? await client.widgets(for: request, as: Shoe.self, budget: .milliseconds(300)) else { return "" }
        let visit = ImpressionPolicy().visit(headers: headers)          // bots and prefetches record nothing
        for widget in products.widgets { try gate.record(.impression(of: widget, context: visitor), visitor: cookie, visit: visit) }
        return try WidgetRenderer().render(products.widgets, template: "carousel")
    }
}
// README end

/// The README's page example, word for word, run against the vendor stand-in.
@Suite("README: a page in one call")
struct ReadmePageExampleTests {
    @Test func theReadmeShowsThisExample() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try #require(source.range(of: "// README begin\n"))
        let end = try #require(source.range(of: "// README end\n"))
        let example = String(source[begin.upperBound..<end.lowerBound])
        let readme = try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- the page example: Tests/RecoPageTests/ReadmePageExampleTests.swift -->\n```swift\nimport RecoPage\nimport RecoTemplates\n\n"
        let start = try #require(readme.range(of: marker), "README.md has no marked page example")
        let stop = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        #expect(String(readme[start.upperBound..<stop.lowerBound]) == example)
        #expect(example.split(separator: "\n").count <= 16)   // the model's line, then the page's 14
    }

    @Test func aVisitorGetsBlocksAndImpressionsAndABotGetsBlocksOnly() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: Fixtures.retenoReply(prefix: "240")))
            let sent = Sent()
            let client = RecommendationsClient(cache: RecommendationsCache(timeToLive: Fixtures.patience), sharedFetchTimeout: Fixtures.patience)
            let page = ProductPage(client: client, gate: ImpressionGate(initialConsent: .granted) { sent.append($0) }, reteno: server.base)
            let visitor = InteractionContext(userId: "u-1", sessionId: "s-1")
            let chrome = [(name: "User-Agent", value: ImpressionPolicyTests.chrome)]
            // The example's budget is 300 ms; on a machine busy enough to miss it, the page renders without
            // the block while the shared fetch goes on and fills the cache, and a later page shows it.
            var html = ""
            for _ in 0..<3000 where html.isEmpty {
                html = try await page.blocks(productId: "240-LV09", cookie: "c-1", visitor: visitor, headers: chrome)
                if html.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(html.contains(#"data-reco-instance-id="r1105v1480""#))
            #expect(html.contains("Similar products"))
            #expect(sent.all.map(\.kind) == [.impression])
            let asked = try await server.count(Fixtures.retenoPath())
            let bot = [(name: "User-Agent", value: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")]
            let botHTML = try await page.blocks(productId: "240-LV09", cookie: "c-2", visitor: visitor, headers: bot)
            #expect(botHTML == html)
            #expect(sent.all.count == 1)
            #expect(try await server.count(Fixtures.retenoPath()) == asked)      // the bot's page came from the cache
        }
    }

    @Test func aPageWhoseVendorFailsRendersWithoutTheBlock() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(status: 500, body: "oops"))
            let page = ProductPage(gate: ImpressionGate(initialConsent: .granted) { _ in }, reteno: server.base)
            let html = try await page.blocks(productId: "240-LV09", cookie: "c", visitor: InteractionContext(userId: "u", sessionId: "s"), headers: [])
            #expect(html == "")
        }
    }
}
