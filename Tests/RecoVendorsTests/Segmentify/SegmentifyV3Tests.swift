import Foundation
import Testing
import RecoVendors

@Suite("Segmentify v3 sample")
struct SegmentifyV3Tests {
    @Test func decodesTheArrayFormWithStaticItemsCarryOverAndElimination() throws {
        let reply = try SegmentifyRecommendations.decode(SamplePayload.data("segmentify-v3.json"), language: "EN")
        #expect(reply.widgets.map(\.instanceId) == ["scn_6551a0b7c3d2e101", "scn_6551a0b7c3d2e110"])
        #expect(reply.widgets.map(\.interactionId) == ["act_6551a0b7c3d2e102", "act_6551a0b7c3d2e111"])
        #expect(reply.widgets.map(\.title) == ["Deals of the Day", "Haftanın Çok Satanları"])
        // Static 100900; smart offers ask 3, have 2; new arrivals ask 3 and take 3 + 1.
        #expect(reply.widgets[0].products.map(\.productId) == ["100900", "128", "148", "141", "143", "145", "147"])
        // 128 and 143 were shown by the first block: ELIMINATE_PREVIOUS leaves them out.
        #expect(reply.widgets[1].products.map(\.productId) == ["120", "121", "122", "123", "124"])
        #expect(reply.widgets[1].items.map(\.position) == [1, 2, 3, 4, 5])
        #expect(reply.widgets[0].items[3].path.description == "$.responses[0][0].params.recommendedProducts[2][0]")
        #expect(reply.widgets[0].items[0].path.description == "$.responses[0][0].params.recommendedProducts[0][0]")
        #expect(reply.report.notices(.duplicateEliminated).map(\.path.description) == [
            "$.responses[0][1].params.recommendedProducts[1][0]", "$.responses[0][1].params.recommendedProducts[1][2]",
        ])
        #expect(reply.report.failures.isEmpty)
    }
}
