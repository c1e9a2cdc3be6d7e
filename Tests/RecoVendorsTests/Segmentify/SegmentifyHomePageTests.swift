import Foundation
import Testing
import RecoVendors

@Suite("Segmentify home page sample")
struct SegmentifyHomePageTests {
    @Test func eventDataProductsStayAndNeverCountAsShown() throws {
        let reply = try SegmentifyRecommendations.decode(SamplePayload.data("segmentify-home-page.json"), language: "EN")
        #expect(reply.widgets.map(\.instanceId) == ["scn_6560d4e1a2b3c001", "scn_6560d4e1a2b3c010", "scn_6560d4e1a2b3c020"])
        #expect(reply.widgets.map(\.interactionId) == ["act_6560d4e1a2b3c002", "act_6560d4e1a2b3c011", "act_6560d4e1a2b3c021"])
        #expect(reply.widgets.map(\.title) == ["Selected for You", "New Arrivals", "İndirimli Ürünler"])
        // EVENT_DATA (key without time frame) gives 4; smart offers skip 101, already in the block.
        #expect(reply.widgets[0].products.map(\.productId) == ["130", "101", "120", "131", "142", "143", "144", "145"])
        // 101 and 120 came from EVENT_DATA, so they do not count as shown; 142 came from smart offers and does.
        #expect(reply.widgets[1].products.map(\.productId) == ["101", "120", "147", "148", "149", "150", "151", "140"])
        // No elimination: 101 shows a third time.
        #expect(reply.widgets[2].products.map(\.productId) == ["101", "102", "103", "105", "107", "109"])
        #expect(reply.widgets[0].items[1].path.description == "$.responses[0][0].params.recommendedProducts.RECOMMENDATION_EVENT_DATA[1]")
        #expect(reply.report.notices(.duplicateEliminated).map(\.path.description) == [
            #"$.responses[0][0].params.recommendedProducts["RECOMMENDATION_SMART_OFFERS|TODAY|NONE"][0]"#,
            #"$.responses[0][1].params.recommendedProducts["RECOMMENDATION_NEW_ARRIVALS|MONTHLY|NONE"][2]"#,
        ])
        #expect(reply.report.failures.isEmpty)
        #expect(reply.report.notices(.emptyWidget).isEmpty)
    }
}
