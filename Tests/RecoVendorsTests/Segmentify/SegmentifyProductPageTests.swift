import Foundation
import Testing
import RecoVendors

@Suite("Segmentify product page sample")
struct SegmentifyProductPageTests {
    let reply: Recommendations<RawProduct>

    init() throws {
        reply = try SegmentifyRecommendations.decode(SamplePayload.data("segmentify-product-page.json"), language: "EN")
    }

    @Test func decodesEveryShownBlockOfBothInnerArraysInOrder() {
        #expect(reply.widgets.map(\.instanceId) == ["scn_64f1c2a9d7e3b001", "scn_64f1c2a9d7e3b010", "scn_64f1c2a9d7e3b020", "scn_64f1c2a9d7e3b040"])
        #expect(reply.widgets.map(\.interactionId) == ["act_64f1c2a9d7e3b002", "act_64f1c2a9d7e3b011", "act_64f1c2a9d7e3b021", "act_64f1c2a9d7e3b041"])
        #expect(reply.widgets.map(\.path.description) == ["$.responses[0][1]", "$.responses[0][2]", "$.responses[1][0]", "$.responses[1][2]"])
        #expect(reply.widgets.allSatisfy { $0.vendor == .segmentify })
        #expect(reply.report.failures.isEmpty)
    }

    @Test func titlesComeFromTheTitleMapForTheLanguageOrFallBack() throws {
        // Blocks 1, 2 and 4 have an EN entry in notificationTitleMap; block 3 has no map.
        #expect(reply.widgets.map(\.title) == ["You May Also Like", "Best Sellers", "Son Gezdiğiniz Ürünler", "Picked for You"])
        let turkish = try SegmentifyRecommendations.decode(SamplePayload.data("segmentify-product-page.json"), language: "TR")
        #expect(turkish.widgets.map(\.title) == ["Bunlar da İlginizi Çekebilir", "Çok Satanlar", "Son Gezdiğiniz Ürünler", "Size Özel Öneriler"])
        let none = try SegmentifyRecommendations.decode(SamplePayload.data("segmentify-product-page.json"))
        #expect(none.widgets.first?.title == "Bunlar da İlginizi Çekebilir")
    }

    @Test func staticItemFirstThenEachSourceUpToItsStringOrNumberCount() throws {
        // Static 100900; the football source ("4") gives 101…104; smart offers (4) give 107…110.
        #expect(reply.widgets[0].products.map(\.productId) == ["100900", "101", "102", "103", "104", "107", "108", "109", "110"])
        #expect(reply.widgets[0].items.map(\.position) == Array(1...9))
    }

    @Test func eliminationSkipsWhatAnEarlierBlockShowedButNotStaticItems() {
        // 102 and 108 were shown by block 1 and are left out; 100900 was only a static item there, so it stays.
        #expect(reply.widgets[1].products.map(\.productId) == ["120", "121", "122", "100900", "123", "124", "125", "126"])
        let eliminated = reply.report.notices(.duplicateEliminated).map(\.path.description)
        #expect(eliminated.contains(#"$.responses[0][2].params.recommendedProducts["RECOMMENDATION_BEST_SELLERS|THIS_WEEK|NONE"][0]"#))
        #expect(eliminated.contains(#"$.responses[0][2].params.recommendedProducts["RECOMMENDATION_BEST_SELLERS|THIS_WEEK|NONE"][3]"#))
    }

    @Test func lastVisitedProductsAreNeverEliminatedAcrossBlocks() {
        // 101 (block 1) and 120 (block 2) were shown already, but the source is LAST_VISITED.
        #expect(reply.widgets[2].products.map(\.productId) == ["130", "101", "120", "131", "132", "133"])
    }

    @Test func aBlockLeftEmptyByEliminationIsReportedNotShown() {
        #expect(reply.widget(instanceId: "scn_64f1c2a9d7e3b030") == nil)
        let empty = reply.report.notices(.emptyWidget)
        #expect(empty.count == 1)
        #expect(empty.first?.path.description == "$.responses[1][1]")
        #expect(empty.first?.message.contains("scn_64f1c2a9d7e3b030") == true)
        #expect(reply.report.notices(.duplicateEliminated).filter { $0.path.description.hasPrefix("$.responses[1][1]") }.count == 6)
    }

    @Test func aShortSourceSharesCarriesOverAndACountOfZeroIsSkipped() {
        // Collaborative filtering asks for 4 but has 2; new arrivals (4) takes 4 + 2; discounted ("0") gives nothing.
        #expect(reply.widgets[3].products.map(\.productId) == ["140", "141", "142", "143", "144", "145", "146", "147"])
    }

    @Test func otherItemTypesAreSkippedAndReported() {
        let skipped = reply.report.notices(.skippedItem)
        #expect(skipped.map(\.path.description) == ["$.responses[0][0]"])
        #expect(skipped.first?.message.contains("sendBannerDetails") == true)
    }

    @Test func everyProductKeepsItsRealPathAndEveryField() throws {
        let first = try #require(reply.widgets.first)
        #expect(first.items[0].path.description == #"$.responses[0][1].params.recommendedProducts.RECOMMENDATION_SOURCE_STATIC_ITEMS[0]"#)
        #expect(first.items[4].path.description == #"$.responses[0][1].params.recommendedProducts["SPOR AKTİVİTELERİ > FUTBOL|MONTHLY|ROCK"][3]"#)
        #expect(first.items[5].path.description == #"$.responses[0][1].params.recommendedProducts["RECOMMENDATION_SMART_OFFERS|TODAY|NONE"][0]"#)
        let raw = first.items[1].raw
        #expect(raw["name"]?.stringValue == "Nike Mercurial Vapor 15 Club FG Erkek Krampon")
        #expect(raw["priceText"]?.stringValue == "1.899,99 TL")
        #expect(raw["price"]?.decimalValue == Decimal(string: "1899.99"))
        #expect(raw["image"]?.stringValue == "//cdn.ornekspor.com.tr/urun/101/1_500x500.jpg")
        #expect(raw["params.kargo"]?.stringValue == "Ücretsiz Kargo")
        #expect(raw.fields.count >= 25)
    }

    @Test func lookupsFindAProductAndItsPosition() throws {
        let item = try #require(reply.item(instanceId: "scn_64f1c2a9d7e3b010", productId: "100900"))
        #expect(item.position == 4)
    }
}
