import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StorefrontCore
@testable import StorefrontKit

@Suite("Click-through")
struct ClickThroughTests {
    @Test func aClickRedirectsToTheProductAndIsTrackedWithItsPosition() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            let link = try #require(page.clickLinks.dropFirst(1).first)
            let secondProduct = page.attribute("data-reco-product-id")[1]
            let (status, location) = try await client.execute(uri: link, method: .get, headers: [.cookie: page.cookies]) {
                ($0.status, $0.headers[.location])
            }
            #expect(status == .found)
            let destination = try #require(location)
            #expect(destination == "/products/\(secondProduct)", "a product the shop sells goes to the shop's own page")

            _ = await harness.deliverEverything()
            let clicks = harness.segmentifyEvents.filter { $0["type"]?.stringValue == "click" }
            #expect(clicks.count == 1)
            #expect(clicks.first?["instanceId"]?.stringValue == "scn_64f1c2a9d7e3b001")
            #expect(clicks.first?["interactionId"]?.stringValue == secondProduct)
            #expect(clicks.first?["name"]?.stringValue == "INTERACTION")
            #expect(clicks.first?["userId"]?.stringValue == page.visitorId, "credited to the visitor who clicked")
        }
    }

    @Test func aClickWithoutCookiesIsCreditedToANewVisitorWhoKeepsThatId() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            let link = try #require(page.clickLinks.first)
            let (status, cookies) = try await client.execute(uri: link, method: .get) { ($0.status, Page($0).cookies) }
            #expect(status == .found)
            let newVisitor = try #require(Page(html: "", cookies: cookies).visitorId)
            #expect(newVisitor != page.visitorId)
            _ = await harness.deliverEverything()
            let clicks = harness.segmentifyEvents.filter { $0["type"]?.stringValue == "click" }
            #expect(clicks.map { $0["userId"]?.stringValue } == [newVisitor])
        }
    }

    @Test func forgedTamperedAndForeignTokensGetA404AndNoRedirect() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            let link = try #require(page.clickLinks.first)
            let token = String(link.dropFirst(3))
            let parts = token.split(separator: ".").map(String.init)
            var evil = try #require(harness.storefront.tokens.verify(token))
            evil.destination = "https://evil.example/"
            let refused = [
                "/r/" + ClickTokens().issue(evil),                                           // another key
                "/r/" + ClickTokens.base64URL(evil.payload) + "." + parts[1],       // payload swapped, tag kept
                "/r/" + parts[0] + "." + String(parts[1].reversed()),                        // tag tampered
                "/r/" + parts[0],                                                             // tag dropped
                "/r/not-a-token",
                "/r/https:%2F%2Fevil.example",
                "/r/%2F%2Fevil.example",
            ]
            for uri in refused {
                let (status, location) = try await client.execute(uri: uri, method: .get) { ($0.status, $0.headers[.location]) }
                #expect(status == .notFound, "\(uri)")
                #expect(location == nil, "\(uri)")
            }
            _ = await harness.deliverEverything()
            let clicks = harness.segmentifyEvents.filter { $0["type"]?.stringValue == "click" }
            #expect(clicks.isEmpty)
            #expect(harness.retenoGroups.allSatisfy { $0["clicks"] == nil })
        }
    }

    @Test func theQueryStringCannotRedirectAnywhereElse() async throws {
        try await Harness.run { client, _ in
            let page = try await client.page("/products/100900")
            let link = try #require(page.clickLinks.first)
            for query in ["?next=https://evil.example", "?url=//evil.example&redirect=https://evil.example", "?destination=javascript:alert(1)"] {
                let location = try await client.execute(uri: link + query, method: .get) { $0.headers[.location] }
                #expect(location == "/products/\(page.attribute("data-reco-product-id")[0])", "\(query)")
            }
        }
    }

    @Test func anExpiredTokenGetsA404() async throws {
        let clock = TestClock()
        try await Harness.run(tokens: ClickTokens(lifetime: .seconds(60), now: { clock.now })) { client, _ in
            let page = try await client.page("/products/100900")
            let link = try #require(page.clickLinks.first)
            #expect(try await client.execute(uri: link, method: .get) { $0.status } == .found)
            clock.advance(by: 61)
            let (status, location) = try await client.execute(uri: link, method: .get) { ($0.status, $0.headers[.location]) }
            #expect(status == .notFound)
            #expect(location == nil)
        }
    }

    @Test func aRetenoClickReachesRetenoInItsFormat() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            let vendors = page.attribute("data-reco-vendor")
            #expect(vendors.last == "reteno")
            // The Reteno block is last: its first product's link follows the Segmentify ones.
            let retenoProducts = try RetenoProductsOnPage(page)
            let link = try #require(retenoProducts.first)
            #expect(try await client.execute(uri: link.href, method: .get) { $0.status } == .found)
            _ = await harness.deliverEverything()
            let groups = harness.retenoGroups
            #expect(groups.allSatisfy { $0["recomVariantId"]?.stringValue == "r1105v1480" })
            let clicks = groups.flatMap { $0["clicks"]?.arrayValue ?? [] }
            #expect(clicks.map { $0["productId"]?.stringValue } == [link.productId])
            #expect(clicks.first?["occurred"]?.stringValue?.hasSuffix("Z") == true)
        }
    }
}

/// The Reteno block's products on a page, with their links.
struct RetenoProductsOnPage: Sequence {
    struct Product { let productId: String; let href: String }
    let products: [Product]

    init(_ page: Page) throws {
        guard let start = page.html.range(of: "data-reco-vendor=\"reteno\"") else {
            products = []
            return
        }
        let block = Page(html: String(page.html[start.lowerBound...]))
        products = zip(block.attribute("data-reco-product-id"), block.clickLinks).map { Product(productId: $0, href: $1) }
    }

    func makeIterator() -> IndexingIterator<[Product]> { products.makeIterator() }
    var first: Product? { products.first }
}

extension Page {
    init(status: HTTPResponse.Status = .ok, html: String, cookies: String = "") {
        self.status = status
        self.html = html
        self.cookies = cookies
    }

    /// The visitor id in the signed visitor cookie the response set (the part before the tag).
    var visitorId: String? { cookie(Visitor.idCookie)?.split(separator: ".").first.map(String.init) }

    /// The value of one of the cookies the response set.
    func cookie(_ name: String) -> String? {
        cookies.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }
}
