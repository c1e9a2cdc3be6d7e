import Foundation
import RecoKitAsyncHTTPClient
import Hummingbird
import HummingbirdTesting
import RecoPage
import Testing
import RecoTracking
@testable import StorefrontKit

@Suite("Product page")
struct ProductPageTests {
    @Test(arguments: ["ahc", "urlsession", "recokit-urlsession"])
    func pageCarriesTheVendorsBlocksWithTrackingAttributes(transport: String) async throws {
        let transport: any Transport = switch transport {
        case "ahc": AsyncHTTPClientTransport()
        case "urlsession": URLSessionTransport(maxReplyBytes: VendorSettings.defaultMaxReplyBytes)
        default: URLSessionTransport.shared
        }
        try await Harness.run(transport: transport) { client, _ in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            #expect(page.html.contains("<h1>Nike Academy Futbol Topu</h1>"))
            // The Segmentify blocks of segmentify-product-page.json that have products in stock, then the Reteno variant.
            #expect(page.attribute("data-reco-instance-id") == Harness.segmentifyBlocks.map(\.instanceId) + ["r1105v1480"])
            #expect(page.attribute("data-reco-interaction-id") == Harness.segmentifyBlocks.map(\.interactionId) + ["r1105v1480"])
            #expect(page.attribute("data-reco-vendor") == ["segmentify", "segmentify", "segmentify", "segmentify", "reteno"])
            let positions = page.attribute("data-reco-position")
            let productIds = page.attribute("data-reco-product-id")
            #expect(!productIds.isEmpty && positions.count == productIds.count)
            #expect(productIds.contains("240-LV09"))
            // Every product links through the click redirect, never straight to the vendor's URL.
            #expect(page.clickLinks.count == productIds.count)
            #expect(!page.html.contains("href=\"https://www.ornekspor.com.tr"))
            // The sample's own price block (template inheritance over the built-in carousel).
            #expect(page.html.contains("class=\"reco-prices sf-price\""))
            #expect(page.html.contains("class=\"reco-carousel") || page.html.contains("reco-carousel"))
            // A new visitor gets both cookies.
            #expect(page.cookies.contains(Visitor.idCookie + "=") && page.cookies.contains(Visitor.sessionCookie + "="))
            #expect(page.html.contains("navigator.sendBeacon"))
        }
    }

    @Test func blocksOffRendersThePageWithoutAskingTheVendors() async throws {
        try await Harness.run { client, _ in
            let page = try await client.page("/products/100900?blocks=off")
            #expect(page.status == .ok)
            #expect(page.html.contains("<h1>Nike Academy Futbol Topu</h1>"))
            #expect(page.attribute("data-reco-instance-id").isEmpty)
        }
    }

    @Test(arguments: [StandInVendor.Behaviour(delay: .seconds(3)), StandInVendor.Behaviour(failing: true)])
    func slowOrFailingVendorLeavesThePageWithoutBlocks(behaviour: StandInVendor.Behaviour) async throws {
        try await Harness.run(behaviour: behaviour, timeout: .seconds(1)) { client, harness in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            #expect(page.html.contains("<h1>Nike Academy Futbol Topu</h1>"))
            #expect(page.attribute("data-reco-instance-id").isEmpty)
            #expect(!page.html.contains("sendBeacon"))
            _ = await harness.deliverEverything()
            #expect(harness.segmentifyEvents.isEmpty && harness.retenoGroups.isEmpty, "no block shown, no impression")
        }
    }

    @Test func vendorDownLeavesThePageWithoutBlocks() async throws {
        try await Harness.run(vendorState: .down) { client, _ in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            #expect(page.html.contains("<h1>Nike Academy Futbol Topu</h1>"))
            #expect(page.attribute("data-reco-instance-id").isEmpty)
        }
    }

    @Test func withACacheASecondPageNeedsNoVendorButAnOutageIsNotCached() async throws {
        try await Harness.run(behaviour: .init(failing: true), cache: RecommendationsCache(timeToLive: .seconds(3600))) { client, harness in
            let failed = try await client.page("/products/100900")
            #expect(failed.attribute("data-reco-instance-id").isEmpty)
            harness.vendor.behaviour = .init()
            let first = try await client.page("/products/100900")
            harness.vendor.behaviour = .init(failing: true)
            let second = try await client.page("/products/100900")
            #expect(!first.attribute("data-reco-instance-id").isEmpty)
            #expect(second.html == first.html, "the second page is the first rendering, links included")
            let other = try await client.page("/products/24-WG080")
            #expect(other.attribute("data-reco-instance-id").isEmpty, "another product is not served from the cache")

            // Both visitors were shown the blocks: each may report a view, and each gets their impressions.
            let block = Harness.segmentifyBlocks[0]
            let form = "instanceId=\(block.instanceId)&interactionId=\(block.interactionId)"
            #expect(try await client.beacon(form, cookies: first.cookies) == .noContent)
            #expect(try await client.beacon(form, cookies: second.cookies) == .noContent)
            _ = await harness.deliverEverything()
            let impressions = harness.segmentifyEvents.filter { $0["type"]?.stringValue == "impression" && $0["instanceId"]?.stringValue == block.instanceId }
            #expect(Set(impressions.compactMap { $0["userId"]?.stringValue }).count == 2)
        }
    }

    @Test func pagesThatMissTheCacheTogetherAskTheVendorsOnce() async throws {
        try await Harness.run(behaviour: .init(delay: .milliseconds(200)), cache: RecommendationsCache(timeToLive: .seconds(3600))) { client, harness in
            let pages = try await withThrowingTaskGroup(of: Page.self) { group in
                for _ in 0..<8 { group.addTask { try await client.page("/products/100900") } }
                return try await group.reduce(into: [Page]()) { $0.append($1) }
            }
            #expect(pages.count == 8)
            #expect(pages.allSatisfy { !$0.attribute("data-reco-instance-id").isEmpty })
            #expect(Set(pages.map(\.html)).count == 1)
            #expect(harness.vendor.recommendationRequests == ["segmentify": 1, "reteno": 1])
        }
    }

    @Test func theStaticReferencePageIsTheFileAsItIsAndOnlyWhenAsked() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-static-\(UUID().uuidString).html")
        try await Harness.run(staticPage: StaticPage(file: file)) { client, _ in
            #expect(try await client.page("/static").status == .notFound, "no file yet")
            try Data("<p>a page with blocks</p>".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(try await client.page("/static").html == "<p>a page with blocks</p>")
            try Data("changed".utf8).write(to: file)
            #expect(try await client.page("/static").html == "<p>a page with blocks</p>", "read once")
        }
        try await Harness.run { client, _ in
            let page = try await client.page("/static")
            #expect(page.status == .notFound, "no route without --static-page")
        }
    }

    @Test func anUnusableProductIdIsNotFound() async throws {
        try await Harness.run { client, _ in
            let page = try await client.page("/products/%3Cscript%3E")
            #expect(page.status == .notFound)
        }
    }
}
