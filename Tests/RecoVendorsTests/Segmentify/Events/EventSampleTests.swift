@testable import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

/// The request bodies in `Samples/Events/` are exactly what the builders write, and a product view's
/// reply decodes into widgets with the recommendation decoder.
@Suite("Segmentify event samples and replies")
struct EventSampleTests {
    let common = SegmentifyCommonFields(userId: "-897541074991628287", sessionId: "-2066154474596835328", lang: "EN")
    let productPage = "https://segmentify-shop.myshopify.com/products/asymmetric-dress-black"

    func sample(_ name: String) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: SamplePayload.packageRoot.appendingPathComponent("Samples/Events/\(name)")))
    }

    /// The request body the Segmentify destination sends for these events (without event ids).
    func body(_ interactions: [Interaction]) throws -> JSONValue {
        let events = interactions.enumerated().map { TrackedEvent(id: EventID(run: 1, sequence: UInt64($0.offset + 1)), interaction: $0.element) }
        return try JSONValue(parsing: SegmentifyEventEncoder.body(records: events.map(EventRecord.init), includeEventIds: false))
    }

    func with(_ change: (inout SegmentifyCommonFields) -> Void) -> SegmentifyCommonFields {
        var copy = common
        change(&copy)
        return copy
    }

    @Test func pageViewSample() throws {
        let page = SegmentifyPageView(category: .categoryPage, subCategory: "Men>Shoes>Sports", common: with {
            $0.currency = "USD"; $0.pageUrl = "https://segmentify-shop.myshopify.com/collections/men-shoes-sports"
            $0.os = "iOS"; $0.device = "IPHONE"; $0.appVersion = "7.2.1"
        })
        #expect(try body([page.interaction()]) == sample("segmentify-page-view.json"))
    }

    @Test func productViewSample() throws {
        var view = SegmentifyProductView(productId: "25799860937", title: "Asymmetric Dress in Black", url: productPage,
                                         image: "//cdn.shopify.com/s/files/1/1524/5822/products/2014_11_17_Lana_Look034_02_300x300.jpg?v=1475497696",
                                         category: "Womenswear > Dresses", price: 578,
                                         common: with { $0.currency = "USD"; $0.pageUrl = productPage })
        view.mobileUrl = "https://m.segmentify-shop.myshopify.com/products/asymmetric-dress-black"
        view.imageXS = "//cdn.shopify.com/s/files/1/1524/5822/products/2014_11_17_Lana_Look034_02_60x60.jpg?v=1475497696"
        view.brand = "Amelia Toro"
        view.oldPrice = Decimal(string: "649.90")!
        view.inStock = true
        view.gender = .female
        view.colors = ["black"]
        view.sizes = ["XS", "S", "M", "L"]
        view.labels = ["new-comer"]
        view.noUpdate = true
        #expect(try body([view.interaction()]) == sample("segmentify-product-view.json"))
    }

    @Test func purchaseSample() throws {
        let purchase = SegmentifyCheckout(step: .purchase, totalPrice: Decimal(string: "436.90")!,
                                          products: [SegmentifyBasketProduct(productId: "25799809929", price: 78, quantity: 1),
                                                     SegmentifyBasketProduct(productId: "25800400265", price: Decimal(string: "179.45")!,
                                                                             currency: "USD", quantity: 2)],
                                          orderNo: "SS-2024-0012313", common: with {
            $0.currency = "USD"; $0.pageUrl = "https://segmentify-shop.myshopify.com/checkouts/c/ss-2024-0012313/thank_you"
        })
        #expect(try body([purchase.interaction()]) == sample("segmentify-checkout-purchase.json"))
    }

    @Test func mixedBatchSample() throws {
        let onProduct = with { $0.pageUrl = productPage }
        let products = ["25800400265", "25799809929"].enumerated().map { index, id -> (RawProduct, JSONPath) in
            (try! RawProduct(fields: ["productId": .string(id)]), JSONPath.root.appending(index: index))
        }
        let widget = Widget(vendor: .segmentify, instanceId: "scn_6186a632e0d76001", interactionId: "act_6185c1e624ab0000",
                            title: "You May Also Like", rawProducts: products)
        let interactions: [Interaction] = [
            try SegmentifyPageView(category: .productPage, subCategory: "Womenswear > Dresses", common: onProduct).interaction(),
            .widgetView(of: widget, context: onProduct.context),
            try .click(productId: "25800400265", in: widget, context: onProduct.context),
            try SegmentifyBasketOperation(step: .add, productId: "25800400265", price: Decimal(string: "179.45")!, quantity: 2,
                                          common: with { $0.pageUrl = "https://segmentify-shop.myshopify.com/products/wool-coat" }).interaction(),
            try SegmentifySearchEvent.afterSearch(query: "Dress", common: with { $0.pageUrl = "https://segmentify-shop.myshopify.com/search" })
                .interaction(),
            try SegmentifyUserOperation(step: .signIn, username: "johndoe",
                                        profile: SegmentifyUserProfile(email: "john.doe@exampleshop.com"), common: common).interaction(),
            try SegmentifyCustomEvent(type: "price_filter", params: ["PRICE": "200-500"], common: common).interaction(),
        ]
        #expect(try body(interactions) == sample("segmentify-mixed-batch.json"))
    }

    @Test func aProductViewsReplyDecodesIntoWidgets() throws {
        let data = try Data(contentsOf: SamplePayload.packageRoot.appendingPathComponent("Samples/Events/segmentify-product-view-reply.json"))
        #expect(VendorPayloads.detect(try JSONValue(parsing: data)) == .segmentifyRecommendations)
        let reply = try SegmentifyRecommendations.decode(data, language: "TR")
        #expect(reply.widgets.map(\.instanceId) == ["scn_6186a632e0d76001", "scn_61869cb94553e000"])
        #expect(reply.widgets.map(\.interactionId) == ["act_6185c1e624ab0000", "act_61869cb94553e001"])
        #expect(reply.widgets[0].title == "Bunlar da İlginizi Çekebilir")
        // The source's count is "3": the fourth product is not shown.
        #expect(reply.widgets[0].products.map(\.productId) == ["25800400265", "25799809929", "25801127881"])
        // Last-visited products never count as shown, so the scarf appears again in the second block.
        #expect(reply.widgets[1].products.map(\.productId) == ["25799809929"])
        #expect(reply.report.failures.isEmpty)
        // Numeric strings and numbers both decode as exact prices in the caller's model.
        struct Card: RecommendableProduct { var productId: String; var name: String; var price: Decimal; var oldPrice: Decimal? }
        let cards = reply.decoded(as: Card.self)
        #expect(cards.widgets[0].products.map(\.price) == [Decimal(string: "179.45")!, 78, Decimal(string: "129.9")!])
        #expect(cards.widgets[0].products[0].oldPrice == 229)
        // A click on what the reply showed is an interaction the same tracker sends.
        let click = try Interaction.click(productId: "25799809929", in: reply.widgets[0], context: common.context)
        #expect(click.position == 2)
    }
}
