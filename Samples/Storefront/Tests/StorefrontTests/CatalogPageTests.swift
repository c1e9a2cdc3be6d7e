import Foundation
import Hummingbird
import HummingbirdTesting
import RecoKit
import Testing
@testable import StorefrontKit

@Suite("Catalog pages")
struct CatalogPageTests {
    @Test func aPageDoesNotRecommendItsOwnProductAndPositionsStartAtOne() async throws {
        try await Harness.run { client, _ in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            let recommended = page.attribute("data-reco-product-id")
            #expect(!recommended.isEmpty)
            #expect(!recommended.contains("100900"), "the viewed product is not recommended on its own page")
            // Another product's page may recommend 100900 (the stand-in answers the same reply for every product).
            let other = try await client.page("/products/101")
            #expect(other.attribute("data-reco-product-id").contains("100900"))
            #expect(!other.attribute("data-reco-product-id").contains("101"))
            #expect(other.html.contains("<h1>Nike Mercurial Vapor 15 Club FG Erkek Krampon</h1>"))
        }
    }

    @Test(arguments: ["999999", "no-such-product", "%3Cscript%3E", String(repeating: "7", count: 65)])
    func anUnknownProductIsA404Page(_ id: String) async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/\(id)")
            #expect(page.status == .notFound)
            #expect(page.html.hasPrefix("There is nothing here."), "\(page.html)")
            #expect(harness.vendor.recommendationRequests.isEmpty, "no vendor is asked about a product the shop does not sell")
        }
    }

    @Test func withoutTheViewedProductABlockLeftEmptyIsDropped() throws {
        let raw = try RawProduct(fields: ["productId": .string("1")])
        let one = WidgetItem(position: 1, product: StoreProduct(productId: "1", title: "One"), raw: raw, path: .root)
        let two = WidgetItem(position: 2, product: StoreProduct(productId: "2", title: "Two"), raw: raw, path: .root)
        let widgets = [Widget(vendor: .segmentify, instanceId: "a", interactionId: "a", title: "A", items: [one, two]),
                       Widget(vendor: .segmentify, instanceId: "b", interactionId: "b", title: "B", items: [one])]
        let kept = Storefront.without("1", in: widgets)
        #expect(kept.map(\.instanceId) == ["a"])
        #expect(kept.first?.items.map(\.product.productId) == ["2"])
        #expect(kept.first?.items.map(\.position) == [1])
    }
}
