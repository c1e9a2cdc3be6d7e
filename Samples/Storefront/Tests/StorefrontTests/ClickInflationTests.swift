import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StorefrontKit

@Suite("Click inflation")
struct ClickInflationTests {
    @Test func aLinkFollowedAHundredTimesCountsOneClickPerVisitor() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            let other = try await client.page("/products/100900?blocks=off")
            let link = try #require(page.clickLinks.first)
            let forged = "sf_visitor=\(String(repeating: "0", count: 32)); sf_session=\(String(repeating: "0", count: 32))"
            for cookies in [page.cookies, nil, forged] {
                for _ in 0..<100 {
                    let status = try await client.execute(uri: link, method: .get, headers: cookies.map { [.cookie: $0] } ?? [:]) { $0.status }
                    #expect(status == .found, "every follow still goes to the product")
                }
            }
            #expect(try await client.execute(uri: link, method: .get, headers: [.cookie: other.cookies]) { $0.status } == .found)
            _ = await harness.deliverEverything()
            let clicks = harness.segmentifyEvents.filter { $0["type"]?.stringValue == "click" }
            // One for the visitor who was shown the page, one for every request without a valid visitor
            // (no cookies, or forged ones) together, one for the other visitor.
            #expect(clicks.count == 3, "\(clicks.count) clicks")
            #expect(clicks.filter { $0["userId"]?.stringValue == page.visitorId }.count == 1)
            #expect(clicks.filter { $0["userId"]?.stringValue == other.visitorId }.count == 1)
            #expect(harness.storefront.clicks.count == 3)
        }
    }

    @Test func theLedgerIsBoundedAndForgetsExpiredLinks() {
        let ledger = ClickLedger(maxEntries: 10)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ledger.isFirstClick(tokenId: "t", visitor: "v", expires: now + 60, now: now))
        #expect(!ledger.isFirstClick(tokenId: "t", visitor: "v", expires: now + 60, now: now + 30))
        #expect(ledger.isFirstClick(tokenId: "t", visitor: "w", expires: now + 60, now: now + 30))
        #expect(ledger.isFirstClick(tokenId: "t", visitor: nil, expires: now + 60, now: now + 30))
        #expect(!ledger.isFirstClick(tokenId: "t", visitor: nil, expires: now + 60, now: now + 30))
        #expect(ledger.isFirstClick(tokenId: "t", visitor: "v", expires: now + 120, now: now + 61), "the link expired: a new rendering")
        for index in 0..<1_000 { _ = ledger.isFirstClick(tokenId: "t\(index)", visitor: "v", expires: now + 60, now: now) }
        #expect(ledger.count == 10)
    }
}
