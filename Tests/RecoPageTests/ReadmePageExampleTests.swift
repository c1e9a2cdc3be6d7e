import Foundation
import Testing
import RecoPage
import RecoTemplates

// README begin
struct Shoe: RecommendableProduct { let productId: String; let name: String }

struct ProductPage {
    var client = RecommendationsClient(cache: RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .seconds(240)))
    let gate: ImpressionGate                     // ImpressionGate(tracker: retenoTracker, initialConsent: .pending)
    var reteno = RetenoRecomsRequest.defaultBaseURL
    var noBlock: @Sendable (NoWidgets) -> Void = { print("no block: \($0)") }   // your logger

    func blocks(productId: String, cookie: String, visitor: InteractionContext, headers: [(name: String, value: String)]) async throws -> String {
        let recoms = try RetenoRecomsRequest(variantId: RetenoVariantId("r1105v1480"), accessKey: "KEY", productIds: [productId], baseURL: reteno)
        let request = RecommendationsRequest.reteno(recoms, title: "Similar products", sharing: .shared(recoms.cacheKey()))
        let products: Recommendations<Shoe>
        do { products = try await client.widgets(for: request, as: Shoe.self, budget: .milliseconds(300)) }
        catch { noBlock(error); return "" }                               // the page renders without the block
        let visit = ImpressionPolicy().visit(headers: headers)          // bots and prefetches record nothing
        for widget in products.widgets {                                // Reteno counts an impression per product
            for impression in Interaction.productImpressions(of: widget, context: visitor) { try gate.record(impression, visitor: cookie, visit: visit) }
        }
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
        #expect(example.split(separator: "\n").count <= 22)   // the model's line, then the page's
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
            // Reteno counts products: one impression per product shown, in order.
            #expect(sent.all.map(\.kind) == [.impression, .impression, .impression])
            #expect(sent.all.map(\.productId) == ["240-1", "240-2", "240-3"])
            let asked = try await server.count(Fixtures.retenoPath())
            let bot = [(name: "User-Agent", value: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")]
            let botHTML = try await page.blocks(productId: "240-LV09", cookie: "c-2", visitor: visitor, headers: bot)
            #expect(botHTML == html)
            #expect(sent.all.count == 3)
            #expect(try await server.count(Fixtures.retenoPath()) == asked)      // the bot's page came from the cache
        }
    }

    @Test func aPageWhoseVendorFailsRendersWithoutTheBlock() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(status: 500, body: "oops"))
            let reasons = Reasons()
            let page = ProductPage(gate: ImpressionGate(initialConsent: .granted) { _ in }, reteno: server.base, noBlock: { reasons.append($0) })
            let html = try await page.blocks(productId: "240-LV09", cookie: "c", visitor: InteractionContext(userId: "u", sessionId: "s"), headers: [])
            #expect(html == "")
            // The reason reaches the page's logger: the vendor's 500, or, on a machine too busy to see it
            // within the example's 300 ms, the budget.
            #expect(reasons.all.count == 1)
            #expect(reasons.all.allSatisfy { $0.kind == .httpStatus || $0.kind == .outOfBudget }, "\(reasons.all)")
        }
    }
}

/// The reasons a page was told there is no block.
private final class Reasons: @unchecked Sendable {
    private let lock = NSLock()
    private var reasons: [NoWidgets] = []
    var all: [NoWidgets] { lock.withLock { reasons } }
    func append(_ reason: NoWidgets) { lock.withLock { reasons.append(reason) } }
}
