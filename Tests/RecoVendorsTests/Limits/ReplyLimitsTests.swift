import Foundation
import Testing
@testable import RecoVendors

/// The Segmentify samples that carry recommendation blocks with `dynamicItems`.
private let segmentifySamples = ["segmentify-home-page.json", "segmentify-product-page.json", "segmentify-v3.json"]

/// The sample with every `itemCount` inside its `dynamicItems` strings replaced by `replacement`
/// (written as it would appear inside the JSON string: `9` for a number, `\"9\"` for a string).
private func sample(_ name: String, itemCount replacement: String) throws -> Data {
    let text = String(decoding: try SamplePayload.data(name), as: UTF8.self)
    let pattern = try NSRegularExpression(pattern: #"\\"itemCount\\":(\\"[^\\]*\\"|-?[0-9]+)"#)
    let replaced = pattern.stringByReplacingMatches(
        in: text, range: NSRange(text.startIndex..., in: text),
        withTemplate: NSRegularExpression.escapedTemplate(for: #"\"itemCount\":"# + replacement))
    #expect(replaced != text, "the sample \(name) holds no itemCount to replace")
    return Data(replaced.utf8)
}

private func limitNotices(_ reply: Recommendations<RawProduct>) -> [DecodingNotice] {
    reply.report.notices.filter { $0.kind == .limitReached }
}

@Suite("Reply limits")
struct ReplyLimitsTests {
    /// The crash of issue 15: `itemCount` Int.max (as a number or a string) overflowed the running
    /// deficit in every Segmentify sample. It is clamped, and each clamp is a notice at its path.
    @Test(arguments: segmentifySamples, [#"9223372036854775807"#, #"\"9223372036854775807\""#, #"\"99999999999999999999999\""#, #"1e300"#])
    func aHugeItemCountIsClampedWithANotice(sample name: String, count: String) throws {
        let normal = try SegmentifyRecommendations.decode(SamplePayload.data(name), language: "EN")
        let reply = try SegmentifyRecommendations.decode(sample(name, itemCount: count), language: "EN")
        let clamped = limitNotices(reply)
        #expect(!clamped.isEmpty)
        for notice in clamped {
            #expect(notice.path.description.hasSuffix(".itemCount"), "\(notice)")
            #expect(notice.message.contains("ReplyLimits.itemCount"))
        }
        // With every source asking for more than it holds, every widget shows at least what it did.
        #expect(reply.widgets.count >= normal.widgets.count)
        #expect(reply.widgets.reduce(0) { $0 + $1.items.count } >= normal.widgets.reduce(0) { $0 + $1.items.count })
    }

    @Test(arguments: segmentifySamples)
    func aNegativeItemCountSkipsTheSourceWithANotice(sample name: String) throws {
        let reply = try SegmentifyRecommendations.decode(sample(name, itemCount: #"\"-9223372036854775808\""#), language: "EN")
        let negative = reply.report.notices.filter { $0.kind == .skippedSource && $0.message.contains("negative itemCount") }
        #expect(!negative.isEmpty)
        #expect(negative.allSatisfy { $0.path.description.hasSuffix(".itemCount") })
        // Only static items can be left.
        let sourced = reply.widgets.flatMap(\.items).filter {
            !$0.path.description.contains("RECOMMENDATION_SOURCE_STATIC_ITEMS") && !$0.path.description.contains(".recommendedProducts[0][")
        }
        #expect(sourced.isEmpty)
    }

    @Test(arguments: [
        (JSONValue.number(8), ItemCount.count(8)), ("8", .count(8)), (" 8 ", .count(8)), (.number(JSONNumber(text: "8.0")!), .count(8)),
        (.number(JSONNumber(text: "9223372036854775807")!), .count(Int.max)), ("9223372036854775808", .tooLarge),
        ("+99999999999999999999", .tooLarge), (.number(JSONNumber(text: "1e30")!), .tooLarge), ("-1", .negative),
        ("-99999999999999999999", .negative), (.number(JSONNumber(text: "-1e30")!), .negative), ("8.5", .unreadable),
        ("eight", .unreadable), (.bool(true), .unreadable), ("", .unreadable), ("-", .unreadable),
    ])
    func anItemCountIsReadWithoutTrapping(value: JSONValue, expected: ItemCount) {
        #expect(ItemCount(value) == expected)
    }

    @Test func aSettableItemCountLimitClampsToIt() throws {
        let block = ReplyBuilder.Block(sources: [.init(source: "A", count: "5", ids: (1...9).map { "a\($0)" })])
        let reply = try SegmentifyRecommendations.decode(ReplyBuilder.reply([[block]]), limits: ReplyLimits(itemCount: 3))
        #expect(reply.widgets.first?.products.map(\.productId) == ["a1", "a2", "a3"])
        #expect(limitNotices(reply).map(\.path.description) == [#"$.responses[0][0].params.dynamicItems(json)[0].itemCount"#])
    }

    @Test func aWidgetKeepsAtMostItsLimitAndSaysWhereItStopped() throws {
        let reply = try RetenoRecoms.decode(SamplePayload.data("reteno-recoms-full.json"), variantId: RetenoVariantId("r1v1"),
                                            limits: ReplyLimits(productsPerWidget: 3))
        #expect(reply.widgets.first?.items.count == 3)
        let notices = limitNotices(reply)
        #expect(notices.map(\.path.description) == ["$.recoms[3]"])
        #expect(notices.first?.message.contains("ReplyLimits.productsPerWidget") == true)
    }

    @Test func aReplyKeepsAtMostItsLimitOverAllItsWidgets() throws {
        let data = try SamplePayload.data("segmentify-home-page.json")
        let normal = try SegmentifyRecommendations.decode(data)
        let total = normal.widgets.reduce(0) { $0 + $1.items.count }
        let limit = total - normal.widgets.last!.items.count + 1   // the last widget keeps one product
        let reply = try SegmentifyRecommendations.decode(data, limits: ReplyLimits(productsPerReply: limit))
        #expect(reply.widgets.reduce(0) { $0 + $1.items.count } == limit)
        #expect(reply.widgets.last?.items.count == 1)
        let notices = limitNotices(reply)
        #expect(notices.count == 1)
        #expect(notices.first?.message.contains("ReplyLimits.productsPerReply") == true)
        #expect(notices.first?.path.description.hasPrefix("$.responses[0]") == true)
    }

    @Test func aSearchReplyKeepsAtMostItsLimit() throws {
        let data = try SamplePayload.data("segmentify-search-after.json")
        let result = try SegmentifySearch.decode(data, limits: ReplyLimits(productsPerWidget: 2))
        #expect(result.products.items.count == 2)
        #expect(result.report.notices.contains { $0.kind == .limitReached && $0.path.description.hasSuffix(".products[2]") })
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        #expect(ReplyLimits.default == ReplyLimits(itemCount: 1_000, productsPerWidget: 20_000, productsPerReply: 100_000))
        #expect(ReplyLimits(itemCount: -5).itemCount == 0)
    }
}

@Suite("Vendor numbers never trap")
struct VendorNumberOverflowTests {
    /// Connectif's check added the products' quantities with `+`: two quantities of Int.max trapped.
    @Test func connectifQuantitiesThatOverflowAreAnError() throws {
        let text = String(decoding: try SamplePayload.data("connectif-purchase.json"), as: UTF8.self)
        let hostile = text.replacingOccurrences(of: #""quantity": 2"#, with: #""quantity": 9223372036854775807"#)
            .replacingOccurrences(of: #""quantity": 1"#, with: #""quantity": 9223372036854775807"#)
        #expect(hostile != text)
        do {
            _ = try VendorPayloads.describe(JSONValue(parsing: Data(hostile.utf8)))
            Issue.record("a purchase whose quantities overflow was accepted")
        } catch {
            #expect("\(error)".contains("add up to more than"), "\(error)")
        }
    }
}
