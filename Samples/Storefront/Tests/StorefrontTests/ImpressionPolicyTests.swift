import Foundation
import Hummingbird
import HummingbirdTesting
import RecoKit
import Testing
@testable import StorefrontKit

/// RecoPage's impression policy as the storefront applies it: bots and prefetches get the same page, and
/// nothing they do reaches the vendors; a person's visit beside them is recorded as usual.
@Suite("Impression policy")
struct ImpressionPolicyTests {
    static let crawler = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

    /// `Sec-Purpose` (HTTPField's name type, reached through HTTPFields: this target does not import HTTPTypes).
    static let secPurpose = HTTPFields.Element.Name("Sec-Purpose")!

    /// A request's headers: a user agent (`nil`: the test client's browser), or a `Sec-Purpose`.
    static func headers(userAgent: String?, purpose: String?) -> HTTPFields {
        var headers = HTTPFields()
        if let userAgent { headers[.userAgent] = userAgent }
        if let purpose { headers[secPurpose] = purpose }
        return headers
    }

    @Test(arguments: [
        ("a crawler", crawler, nil),
        ("no User-Agent", "", nil),
        ("a prefetch", nil, "prefetch"),
        ("a prerender", nil, "prefetch;prerender"),
    ] as [(String, String?, String?)])
    func aVisitThatIsNotAPersonsRecordsNothing(what: String, userAgent: String?, purpose: String?) async throws {
        try await Harness.run { client, harness in
            let headers = Self.headers(userAgent: userAgent, purpose: purpose)
            let page = try await client.execute(uri: "/products/100900", method: .get, headers: headers) { Page($0) }
            #expect(page.status == .ok)
            #expect(page.attribute("data-reco-vendor").filter { $0 == "segmentify" }.count == Harness.segmentifyBlocks.count, "\(what) sees the blocks")
            let link = try #require(page.clickLinks.first)
            var clickHeaders = headers
            clickHeaders[.cookie] = page.cookies
            #expect(try await client.execute(uri: link, method: .get, headers: clickHeaders) { $0.status } == .found)

            // A person's page beside it: its impressions are the only ones.
            let person = try await client.page("/products/100900")
            _ = await harness.deliverEverything()
            let users = Set(harness.segmentifyEvents.compactMap { $0["userId"]?.stringValue })
            #expect(users == [try #require(person.visitorId)], "\(what): events of \(users)")
            #expect(harness.segmentifyEvents.allSatisfy { $0["type"]?.stringValue == "impression" }, "\(what): no click")
        }
    }

    @Test func aPrefetchedPageCountsItsWidgetViewWhenTheVisitorSeesIt() async throws {
        try await Harness.run { client, harness in
            let prefetch = Self.headers(userAgent: nil, purpose: "prefetch")
            let page = try await client.execute(uri: "/products/100900", method: .get, headers: prefetch) { Page($0) }
            let block = Harness.segmentifyBlocks[0]
            let status = try await client.beacon("instanceId=\(block.instanceId)&interactionId=\(block.interactionId)", cookies: page.cookies)
            #expect(status == .noContent)
            _ = await harness.deliverEverything()
            #expect(harness.segmentifyEvents.map { $0["type"]?.stringValue } == ["widget-view"],
                    "the view is recorded, the prefetch's impressions are not")
        }
    }

    @Test func aBotsBeaconIsNotRecorded() async throws {
        try await Harness.run { client, harness in
            let page = try await client.page("/products/100900")
            let block = Harness.segmentifyBlocks[0]
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .userAgent: Self.crawler]
            headers[.cookie] = page.cookies
            let form = ByteBuffer(string: "instanceId=\(block.instanceId)&interactionId=\(block.interactionId)")
            #expect(try await client.execute(uri: "/beacon", method: .post, headers: headers, body: form) { $0.status } == .noContent)
            _ = await harness.deliverEverything()
            #expect(!harness.segmentifyEvents.contains { $0["type"]?.stringValue == "widget-view" })
        }
    }
}
