import Foundation
import Hummingbird
import HummingbirdTesting
import RecoPage
import Testing
@testable import StorefrontKit

/// A flood of new and forged visitors leaves the server's memories at their bounds, read from the
/// server's own counters (not the process's size, which a test cannot read reliably).
@Suite("Visitor flood")
struct FloodTests {
    @Test func thousandsOfNewAndForgedCookiesStayWithinTheBounds() async throws {
        let seed = Seed.fromEnvironmentOrRandom()
        print("FloodTests seed: \(seed) (STOREFRONT_TEST_SEED=\(seed) replays it)")
        var random = SplitMix64(seed: seed)
        let rendered = RenderedWidgets(maxVisitors: 200, maxWidgetsPerVisitor: 8, maxBytes: 64 << 10)
        let vendor = try StandInVendor(recentCapacity: 50, recentBytes: 256 << 10)
        let requests = 2_000
        let floods: [String?] = (0..<requests).map { index in
            switch index % 4 {
            case 0: nil
            case 1: "sf_visitor=\(random.hex(32)); sf_session=\(random.hex(32))"                 // well-formed, unsigned
            case 2: "sf_visitor=\(random.hex(32)).\(random.base64URL(43)); sf_session=x"         // forged tag
            default: "sf_visitor=\(random.garbage(maxLength: 300)); sf_session=\(random.garbage(maxLength: 40))"
            }
        }
        try await Harness.run(cache: RecommendationsCache(timeToLive: .seconds(600)), rendered: rendered, vendor: vendor) { client, harness in
            for cookies in floods {
                let page = try await client.page("/products/100900", cookies: cookies)
                #expect(page.status == .ok)
                #expect(page.visitorId != nil, "every one is a new visitor")
            }
            // Each visitor here is reckoned at about 700 bytes (5 blocks), so the byte bound binds before the count.
            #expect(rendered.visitorCount > 50 && rendered.visitorCount < 200, "\(rendered.visitorCount)")
            #expect(rendered.byteCount <= 64 << 10)
            #expect(rendered.evictions >= requests - 200)
            _ = await harness.deliverEverything()
            #expect(vendor.received.count <= 50)
            let counts = vendor.counts
            #expect(counts.requests.values.reduce(0, +) > 50, "more requests arrived than are kept: \(counts)")
            #expect(counts.dropped == counts.requests.values.reduce(0, +) - vendor.received.count)
            #expect(counts.bytes > 0)
        }
    }

    @Test func theStandInKeepsABoundedRingOfRecentRequests() {
        var recent = RecentRequests(capacity: 3, maxBytes: 100)
        func request(_ index: Int) -> StandInVendor.Received { .init(vendor: "segmentify", uri: "/\(index)", body: .null) }
        for index in 0..<10 { recent.append(request(index), bytes: 10) }
        #expect(recent.requests.map(\.uri) == ["/7", "/8", "/9"])
        recent.append(request(10), bytes: 90)
        #expect(recent.requests.map(\.uri) == ["/9", "/10"], "bytes bound: older ones go until it fits")
        recent.append(request(11), bytes: 101)
        #expect(recent.requests.map(\.uri) == ["/9", "/10"], "too large to keep, still counted")
        #expect(recent.counts.requests["segmentify"] == 12)
        #expect(recent.counts.dropped == 10 && recent.keptBytes == 100 && recent.counts.bytes == 291)
    }
}
