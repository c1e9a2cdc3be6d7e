import Foundation
import Testing
@testable import RecoPage
import RecoKit

/// The cache keeps the first rendering of an answer: pages that waited on one fetch render side by side,
/// and each is handed the rendering kept first, so every visitor is served the same HTML. A rendering
/// can differ by the moment it was made (the storefront's click links expire in whole seconds: its CI
/// run served two visitors of one product two renderings, `pagesThatMissTheCacheTogetherAskTheVendorsOnce`).
/// The later rendering used to replace the first in the cache, and each page served its own.
@Suite("Renderings kept first")
struct RenderingKeptFirstTests {
    static let key = RecommendationsCacheKey(vendor: .reteno, kind: "recoms", subject: "product:240-LV09", variant: "r1v1")
    static let name = RecommendationsCache.RenderingName(name: "list", product: ObjectIdentifier(RawProduct.self), fields: .all,
                                                         filters: [], others: [])

    /// A cache holding an answer for ``key``, and the answer's generation.
    static func cacheWithAnAnswer() async throws -> (RecommendationsCache, UInt64) {
        let cache = RecommendationsCache(timeToLive: .seconds(3600))
        guard case .wait(let load, _, _) = cache.lookup(key, load: {
            .success(.init(recommendations: Recommendations<RawProduct>(widgets: []), bytes: 10))
        }) else { throw TestFailure("an empty cache has no answer") }
        return (cache, try await load.value.get().generation)
    }

    @Test func aSecondRenderingOfTheSameAnswerGetsTheFirst() async throws {
        let (cache, generation) = try await Self.cacheWithAnAnswer()
        // Two pages rendered the answer at once: the first to keep its rendering keeps it.
        #expect(cache.keepRendered(.init(html: "rendering 1", shown: 1, others: []), Self.key, name: Self.name, generation: generation) == nil)
        let served = cache.keepRendered(.init(html: "rendering 2", shown: 2, others: []), Self.key, name: Self.name, generation: generation)
        #expect(served?.html == "rendering 1", "the later page serves the first rendering")
        #expect(cache.rendered(Self.key, name: Self.name, generation: generation)?.html == "rendering 1")
        #expect(cache.statistics.bytes == 10 + "rendering 1".utf8.count, "one rendering counted")
    }

    @Test func aRenderingOfAnotherAnswerIsNotKept() async throws {
        let (cache, generation) = try await Self.cacheWithAnAnswer()
        #expect(cache.keepRendered(.init(html: "old", shown: 0, others: []), Self.key, name: Self.name, generation: generation + 99) == nil)
        #expect(cache.rendered(Self.key, name: Self.name, generation: generation) == nil)
        let other = RecommendationsCache.RenderingName(name: "grid", product: ObjectIdentifier(RawProduct.self), fields: .all, filters: [], others: [])
        #expect(cache.keepRendered(.init(html: "list", shown: 1, others: []), Self.key, name: Self.name, generation: generation) == nil)
        #expect(cache.keepRendered(.init(html: "grid", shown: 2, others: []), Self.key, name: other, generation: generation) == nil,
                "another name is another rendering")
    }
}
