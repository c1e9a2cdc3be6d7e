import Foundation
import Hummingbird
import HummingbirdTesting
import RecoPage
import Testing
@testable import StorefrontKit

/// A vendor outage longer than every cache window, on a live storefront: the page keeps a block from the
/// shop's own list, and `GET /metrics` tells an operator so (the fallbacks served, the events waiting).
@Suite("Vendor outage")
struct VendorOutageTests {
    static let ttl = Duration.seconds(60), staleWhileRevalidate = Duration.seconds(240), staleIfError = Duration.seconds(6 * 3600)

    @Test func anOutageLongerThanEveryCacheWindowLeavesTheShopsBlockAndMetricsShowIt() async throws {
        let time = ManualTime()
        let cache = RecommendationsCache(timeToLive: Self.ttl, staleWhileRevalidate: Self.staleWhileRevalidate, staleIfError: Self.staleIfError,
                                         clock: time.cacheClock)
        let vendorBlocks = Harness.segmentifyBlocks.map(\.instanceId) + ["r1105v1480"]
        try await Harness.run(cache: cache, shopList: try Catalog.sample().bestSellers(), trackingClock: time.trackingClock,
                              live: true) { client, harness in
            let fresh = try await client.page("/products/100900")
            #expect(fresh.attribute("data-reco-instance-id") == vendorBlocks)
            _ = await harness.deliverEverything()

            // The vendor fails from now on: recommendation requests and events alike get 503.
            harness.vendor.behaviour = .init(failing: true, refusingEvents: true)
            time.advance(Self.ttl + .seconds(1))
            let revalidating = try await client.page("/products/100900")
            #expect(revalidating.attribute("data-reco-instance-id") == vendorBlocks, "stale while revalidating")
            time.advance(Self.staleWhileRevalidate)
            let staleIfError = try await client.page("/products/100900")
            #expect(staleIfError.attribute("data-reco-instance-id") == vendorBlocks, "the last good answer, the vendor failing")

            // Past every window: the shop's own list, once, marked as the shop's, its links through the click redirect.
            time.advance(Self.staleIfError)
            let outage = try await client.page("/products/100900")
            #expect(outage.status == .ok)
            #expect(outage.attribute("data-reco-vendor") == ["shop"], "\(outage.html)")
            #expect(outage.attribute("data-reco-instance-id") == ["shop:best-sellers"])
            let products = outage.attribute("data-reco-product-id")
            #expect(products.count == 7 && !products.contains("100900"), "the catalog's first 8, less the page's own: \(products)")
            #expect(outage.clickLinks.count == products.count)
            #expect(harness.log.messages.contains { $0.contains("segmentify answered HTTP 503: its place served by shop fallback") },
                    "the outage is logged, not hidden by its fallback: \(harness.log.messages)")

            // The stale pages' impressions wait for the vendor (the trackers' clock moved with the cache's):
            // the alert's threshold of five minutes is long passed.
            time.advance(.seconds(600))
            let response = try await client.execute(uri: "/metrics", method: .get) { $0 }
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let metrics = try PrometheusText(parsing: String(buffer: response.body))
            for vendor in ["segmentify", "reteno"] {
                for (step, count) in [("fresh", 1.0), ("stale_while_revalidate", 1), ("stale_if_error", 1), ("shop_fallback", 1), ("none", 0)] {
                    #expect(metrics.value("recokit_page_blocks_served_total", ["vendor": vendor, "step": step]) == count, "\(vendor) \(step)")
                }
                #expect((metrics.value("recokit_page_vendor_answers_total", ["vendor": vendor, "outcome": "http_status"]) ?? 0) >= 2)
                // The alert of the storefront's README: oldest pending event older than 5 minutes.
                let age = try #require(metrics.value("recokit_tracking_oldest_pending_age_seconds", ["destination": vendor]))
                #expect(age > 300, "\(vendor): \(age)")
                #expect((metrics.value("recokit_tracking_pending_events", ["destination": vendor]) ?? 0) > 0)
                // The shop's block was tracked to no vendor (a vendor's destination refuses it).
                #expect(metrics.value("recokit_tracking_events_refused_total", ["destination": vendor, "reason": "invalid"]) == 0)
            }
            #expect(metrics.types["recokit_page_blocks_served_total"] == "counter")
            #expect(metrics.types["recokit_tracking_oldest_pending_age_seconds"] == "gauge")
        }
    }
}
