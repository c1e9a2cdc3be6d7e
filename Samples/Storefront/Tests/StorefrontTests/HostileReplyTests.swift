import Foundation
import Hummingbird
import HummingbirdTesting
import RecoTracking
import Testing
@testable import StorefrontKit

/// Replies no vendor should send, made from `Samples/Payloads` (truncated, nested past any limit, numbers
/// too large for anything, wrong types, too large, too slow, not UTF-8, empty, an HTML error page), served
/// by the stand-in vendor. Whatever the reply, the page answers 200 without that vendor's blocks, and the
/// log says why.
@Suite("Hostile vendor replies")
struct HostileReplyTests {
    /// One hostile reply and the log line it must leave.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var vendor: String
        var reply: ScriptedReply
        var logged: String
        /// The page's vendor timeout, when the case needs a short one.
        var timeout: Duration = Harness.timeout
        var testDescription: String { "\(vendor): \(name)" }
    }

    static let payloads = StandInVendor.defaultPayloads
    static let segmentify = (try? Data(contentsOf: payloads.appendingPathComponent("segmentify-product-page.json"))) ?? Data()
    static let reteno = (try? Data(contentsOf: payloads.appendingPathComponent("reteno-recoms-full.json"))) ?? Data()

    /// The Segmentify payload with every `itemCount` (a string or a number inside `dynamicItems`) replaced.
    static func segmentify(itemCount: String) -> Data {
        let text = String(decoding: segmentify, as: UTF8.self)
        let pattern = try! NSRegularExpression(pattern: #"\\"itemCount\\":(\\"[0-9]+\\"|[0-9]+)"#)
        let replaced = pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                        withTemplate: NSRegularExpression.escapedTemplate(for: #"\"itemCount\":"# + itemCount))
        return Data(replaced.utf8)
    }

    static func json(_ text: String) -> ScriptedReply { ScriptedReply(body: Data(text.utf8)) }

    static let cases: [Case] = [
        Case(name: "truncated", vendor: "segmentify", reply: ScriptedReply(body: segmentify.prefix(segmentify.count / 2)), logged: "segmentify reply not usable"),
        Case(name: "nested 100,000 deep", vendor: "segmentify",
             reply: json(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)), logged: "segmentify reply not usable"),
        Case(name: "nested in responses", vendor: "segmentify",
             reply: json(#"{"statusCode":"SUCCESS","responses":"# + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "}"),
             logged: "segmentify reply not usable"),
        Case(name: "itemCount 9223372036854775807 as a number", vendor: "segmentify",
             reply: ScriptedReply(body: segmentify(itemCount: "9223372036854775807")), logged: "itemCount 9223372036854775807 is over 100"),
        Case(name: "itemCount 9223372036854775807 as a string", vendor: "segmentify",
             reply: ScriptedReply(body: segmentify(itemCount: #"\"9223372036854775807\""#)), logged: "itemCount 9223372036854775807 is over 100"),
        Case(name: "itemCount past Int as a string", vendor: "segmentify",
             reply: ScriptedReply(body: segmentify(itemCount: #"\"99999999999999999999999999\""#)), logged: "is over 100"),
        Case(name: "itemCount 1e300", vendor: "segmentify", reply: ScriptedReply(body: segmentify(itemCount: "1e300")), logged: "is over 100"),
        Case(name: "responses of the wrong type", vendor: "segmentify", reply: json(#"{"statusCode":"SUCCESS","responses":{"a":1}}"#),
             logged: "segmentify reply not usable"),
        Case(name: "a number for the whole reply", vendor: "segmentify", reply: json("1e999999999"), logged: "segmentify reply not usable"),
        Case(name: "20 MB with its length", vendor: "segmentify", reply: ScriptedReply(body: Data(count: 20 << 20)), logged: "larger than 4194304 bytes"),
        Case(name: "20 MB streamed", vendor: "reteno", reply: ScriptedReply(body: Data(repeating: 0x20, count: 20 << 20), chunkSize: 256 << 10),
             logged: "larger than 4194304 bytes"),
        Case(name: "slow to stream its body", vendor: "segmentify",
             reply: ScriptedReply(body: segmentify, chunkSize: max(1, segmentify.count / 40), chunkDelay: .milliseconds(150)),
             logged: "segmentify did not answer within", timeout: .seconds(2)),
        Case(name: "invalid UTF-8", vendor: "segmentify",
             reply: ScriptedReply(body: segmentify.prefix(400) + Data([0xFF, 0xC0, 0x80]) + segmentify.dropFirst(403)), logged: "segmentify reply not usable"),
        Case(name: "empty body", vendor: "segmentify", reply: ScriptedReply(body: Data()), logged: "segmentify reply not usable"),
        Case(name: "HTML error page, 200", vendor: "segmentify",
             reply: ScriptedReply(contentType: "text/html", body: Data("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8)),
             logged: "segmentify reply not usable"),
        Case(name: "HTML error page, 502", vendor: "reteno",
             reply: ScriptedReply(status: 502, contentType: "text/html", body: Data("<html><h1>Bad Gateway</h1></html>".utf8)),
             logged: "reteno answered HTTP 502"),
        Case(name: "truncated", vendor: "reteno", reply: ScriptedReply(body: reteno.prefix(reteno.count / 3)), logged: "reteno reply not usable"),
        Case(name: "recoms of the wrong type", vendor: "reteno", reply: json(#"{"recoms":"everything"}"#), logged: "reteno reply not usable"),
    ]

    @Test(arguments: cases)
    func thePageIsServedWithoutTheBlockAndTheReasonIsLogged(_ hostile: Case) async throws {
        let behaviour = hostile.vendor == "segmentify" ? StandInVendor.Behaviour(segmentifyReply: hostile.reply)
                                                       : StandInVendor.Behaviour(retenoReply: hostile.reply)
        try await Harness.run(behaviour: behaviour, timeout: hostile.timeout) { client, harness in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            #expect(page.html.contains("<h1>Nike Academy Futbol Topu</h1>"))
            let vendors = page.attribute("data-reco-vendor")
            #expect(!vendors.contains(hostile.vendor), "the hostile vendor's blocks are left out")
            #expect(vendors.contains(hostile.vendor == "segmentify" ? "reteno" : "segmentify"), "the other vendor's blocks are still shown")
            #expect(harness.log.messages.contains { $0.contains(hostile.logged) }, "\(harness.log.messages)")
        }
    }

    @Test(arguments: [false, true])
    func aLargeReplyIsCutOffByTheURLSessionTransportToo(streamed: Bool) async throws {
        let reply = ScriptedReply(body: Data(repeating: 0x20, count: 20 << 20), chunkSize: streamed ? 256 << 10 : nil)
        try await Harness.run(behaviour: .init(segmentifyReply: reply), transport: URLSessionTransport(maxReplyBytes: VendorSettings.defaultMaxReplyBytes)) { client, harness in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            #expect(page.attribute("data-reco-vendor") == ["reteno"])
            #expect(harness.log.messages.contains { $0.contains("segmentify unusable (the reply is larger than 4194304 bytes)") }, "\(harness.log.messages)")
        }
    }

    @Test func productsOverTheLimitsAreSkippedAndHugeNumbersDoNotStopThePage() async throws {
        var text = String(decoding: Self.segmentify, as: UTF8.self)
        let name = try #require(text.range(of: #""name": "Nike Academy Futbol Topu""#))
        text.replaceSubrange(name, with: #""name": ""# + String(repeating: "N", count: 1 << 20) + "\"")
        let price = try #require(text.range(of: #""price": 1899.99"#))
        text.replaceSubrange(price, with: #""price": 1e999999999"#)
        text = text.replacingOccurrences(of: #""price": 449.9"#, with: #""price": -9223372036854775809"#)
        try await Harness.run(behaviour: .init(segmentifyReply: ScriptedReply(body: Data(text.utf8)))) { client, harness in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            #expect(page.attribute("data-reco-vendor").contains("segmentify"), "the blocks stay, less what is over a limit")
            #expect(!page.html.contains(String(repeating: "N", count: 600)))
            #expect(harness.log.messages.contains { $0.contains("its name is 1048576 bytes, over 512") }, "\(harness.log.messages)")
        }
    }

    /// The same counts handed to RecoKit itself, the storefront's own check switched off: RecoVendors'
    /// block assembly once trapped on the overflow ("arithmetic overflow", BlockAssembly.swift:33), which
    /// killed the whole server process; it now clamps the count to its own limit and says so.
    @Test(arguments: ["9223372036854775807", #"\"9223372036854775807\""#])
    func recoKitItselfSurvivesAHugeItemCount(_ itemCount: String) async throws {
        var limits = StorefrontLimits()
        limits.maxItemCount = .max
        try await Harness.run(behaviour: .init(segmentifyReply: ScriptedReply(body: Self.segmentify(itemCount: itemCount))), limits: limits) { client, _ in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            #expect(page.attribute("data-reco-vendor").contains("reteno"))
        }
    }

    @Test func oneHostileBlockIsLeftOutAndTheOthersAreShown() async throws {
        // Only the first block's counts are hostile: the three other blocks of the reply are shown.
        var text = String(decoding: Self.segmentify, as: UTF8.self)
        let first = try #require(text.range(of: #"\"itemCount\":\"4\""#))
        text.replaceSubrange(first, with: #"\"itemCount\":\"9223372036854775807\""#)
        try await Harness.run(behaviour: .init(segmentifyReply: ScriptedReply(body: Data(text.utf8)))) { client, harness in
            let page = try await client.page("/products/100900")
            #expect(page.status == .ok)
            let shown = page.attribute("data-reco-instance-id")
            #expect(!shown.contains(Harness.segmentifyBlocks[0].instanceId))
            // (Without the first block, a later one keeps products the first had eliminated: it may show too.)
            #expect(Set(Harness.segmentifyBlocks.dropFirst().map(\.instanceId) + ["r1105v1480"]).isSubset(of: shown))
            #expect(harness.log.messages.contains { $0.contains("$.responses[0][1] (\(Harness.segmentifyBlocks[0].instanceId)): itemCount 9223372036854775807 is over 100") },
                    "\(harness.log.messages)")
        }
    }
}
