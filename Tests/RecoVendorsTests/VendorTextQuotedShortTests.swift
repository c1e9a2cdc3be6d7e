import RecoDestinations
import Foundation
import Testing
@testable import RecoVendors
import RecoKit
import RecoHTTP
import RecoTracking

/// Text a vendor wrote (a status code, an error's detail, a reply's body, an object's keys) goes into
/// messages, reasons and dead letters; a reply may be 16 MiB, so each is quoted short. A Segmentify
/// refusal with a megabyte `statusCode` went whole into the dead letter of every event of its batch.
@Suite("Text a vendor wrote is quoted short")
struct VendorTextQuotedShortTests {
    static let megabyte = String(repeating: "X", count: 1 << 20)

    @Test func textIsShortenedToItsLimitWithAnEllipsis() {
        #expect("abc".shortened(to: 3) == "abc")
        #expect("abcd".shortened(to: 3) == "abc…")
        #expect("".shortened(to: 0) == "")
        #expect("a".shortened(to: 0) == "…")
        #expect("çğıöşü🇹🇷".shortened(to: 6) == "çğıöşü…", "characters, not bytes")
        #expect("çğıöşü🇹🇷".shortened(to: 7) == "çğıöşü🇹🇷")
        #expect(Self.megabyte.shortened(to: 10) == "XXXXXXXXXX…")
    }

    @Test func aReplysBodyIsQuotedFromItsFirstBytesOnly() {
        let large = VendorReply(status: 400, body: Data(Self.megabyte.utf8))
        #expect(large.bodyText() == String(repeating: "X", count: 300) + "…")
        #expect(large.bodyText(limit: 0) == "…")
        let turkish = VendorReply(status: 400, body: Data("ğ".utf8) + Data(repeating: UInt8(ascii: "y"), count: 10))
        #expect(turkish.bodyText(limit: 3) == "ğyy…")
        #expect(turkish.bodyText(limit: 11) == "ğyyyyyyyyyy")
        #expect(turkish.bodyText(limit: 12) == "ğyyyyyyyyyy")
        // Characters of many bytes each (a letter and 30 combining marks): what fits in the bytes read
        // is shown, and the cut is marked.
        let marks = String(repeating: "a" + String(repeating: "\u{0301}", count: 30), count: 20)
        let text = VendorReply(status: 400, body: Data(marks.utf8)).bodyText(limit: 5)
        #expect(text.hasSuffix("…") && text.count <= 6, "\(text.count) characters")
    }

    @Test func aVerdictsReasonIsKeptToItsLongest() {
        for verdict in [DeliveryVerdict.rejected(reason: Self.megabyte), .misconfigured(reason: Self.megabyte)] {
            let reason = verdict.description.drop { $0 != ":" }.dropFirst(2)
            #expect(reason == Substring(String(repeating: "X", count: DeliveryVerdict.longestReason) + "…"), "\(verdict.description.prefix(40))")
        }
        #expect(DeliveryVerdict.rejected(reason: "HTTP 400: bad").description == "rejected: HTTP 400: bad")
    }

    /// Segmentify's verdict on a refusal, and on a 200 with a code it does not know, with a megabyte code.
    @Test(arguments: [200, 400])
    func aSegmentifyCodeOfAMegabyteIsQuotedShort(_ status: Int) throws {
        let destination = SegmentifyDestination(dataCenter: URL(string: "https://gandalf.example")!, apiKey: "k", origin: "shop.example")
        let body = try JSONSerialization.data(withJSONObject: ["statusCode": Self.megabyte, "message": Self.megabyte])
        let verdict = destination.verdict(for: VendorReply(status: status, body: body), eventCount: 100, now: Date())
        let words = verdict.description
        #expect(words.count <= DeliveryVerdict.longestReason + 20, "\(words.count) characters")
        #expect(words.contains(String(repeating: "X", count: 64) + "…"), "\(words.prefix(200))")
        #expect(words.contains("HTTP \(status): {"), "the reply's start: \(words.prefix(200))")
    }

    /// Connectif's `code` and `detail` of 400 KB each (a body over 1 MiB is quoted as text, not read).
    @Test func aConnectifErrorOfHundredsOfKilobytesIsQuotedShort() throws {
        let large = String(Self.megabyte.prefix(400_000))
        let body = try JSONSerialization.data(withJSONObject: ["code": large, "detail": large])
        let reason = ConnectifAPISender.reason(VendorReply(status: 422, body: body))
        #expect(reason == "HTTP 422 " + String(repeating: "X", count: 64) + "…: " + String(repeating: "X", count: 300) + "…")
    }

    /// A recommendations reply whose status is an error of a megabyte, and one that is an object of
    /// 100,000 keys: each error says so in a message of at most ``PayloadError/longestMessage``.
    @Test func aDecodingErrorQuotesThePayloadShort() throws {
        let status = try JSONSerialization.data(withJSONObject: ["statusCode": Self.megabyte, "responses": [[String]]()])
        let keys = Data(("{" + (0..<100_000).map { #""key\#($0)\#(String(repeating: "k", count: 50))":1"# }.joined(separator: ",") + "}").utf8)
        for (name, data) in [("a megabyte status", status), ("100,000 keys", keys)] {
            do {
                _ = try VendorPayloads.decode(data)
                Issue.record("\(name): decoded")
            } catch {
                #expect(error.message.count <= PayloadError.longestMessage + 1, "\(name): \(error.message.count) characters")
                #expect(error.description.count < 2 * PayloadError.longestMessage, "\(name): \(error.description.prefix(300))")
            }
        }
        let error = try #require(throws: PayloadError.self) { try VendorPayloads.decode(keys) }
        #expect(error.message.hasSuffix(" and 99990 more"), "\(error.message.suffix(120))")
    }

    /// A Segmentify reply of about 2 MB whose block id and product list's name are a megabyte each, and
    /// whose 2,000 products are two, alternating, in a block that eliminates duplicates: each of the
    /// 1,998 products left out gets a notice that quotes the block's id, under a path that names the
    /// list. Quoted whole, the notices of this one reply came to 2 GB (`recokit decode`: 2 min 36 s,
    /// 1.99 GB resident, 2.0 GB written).
    @Test func theNoticesOfAReplyWithMegabyteIdsAreShort() throws {
        let source = String(Self.megabyte.prefix(1_000_000))
        let products = (0..<2_000).map { ["productId": "p\($0 % 2)", "name": "n", "url": "https://shop.example/p", "image": "//i", "price": 1] as [String: Any] }
        let items = try JSONSerialization.data(withJSONObject: [["recommendationSource": source, "itemCount": 2_000]])
        let params: [String: Any] = ["actionType": "RECOMMEND", "actionId": "a1", "instanceId": Self.megabyte, "notificationTitle": "t",
                                     "elimination": "ELIMINATE_DUPLICATES", "dynamicItems": String(decoding: items, as: UTF8.self),
                                     "recommendedProducts": [source: products]]
        let reply = try JSONSerialization.data(withJSONObject: ["statusCode": "SUCCESS", "responses": [[["type": "recommendProducts", "params": params]]]])
        let decoded = try SegmentifyRecommendations.decode(reply)
        #expect(decoded.widgets.map(\.items.count) == [2])
        let notices = decoded.report.notices.filter { $0.kind == .duplicateEliminated }
        // The first notices are listed, up to the report's bound, and the others counted.
        #expect(notices.count + decoded.report.unlistedNotices[.duplicateEliminated, default: 0] == 1_998)
        let longest = decoded.report.notices.map { $0.description.utf8.count }.max() ?? 0
        #expect(longest < DecodingNotice.longestMessage + 2 * String.quotedWordsLength, "a notice of \(longest) bytes")
        let first = try #require(notices.first)
        #expect(first.message == "product p0 is already in \(String(repeating: "X", count: 64))…")
        #expect(first.path.description.hasSuffix(".recommendedProducts[\"\(String(repeating: "X", count: 300))…\"][2]"), "\(first.path.description.suffix(80))")
        // The path itself is whole: it is the quote of it that is short.
        #expect(first.path == JSONPath.root.appending(key: "responses").appending(index: 0).appending(index: 0).appending(key: "params")
            .appending(key: "recommendedProducts").appending(key: source).appending(index: 2))
        // A notice made with words of a megabyte keeps its longest.
        #expect(DecodingNotice(.skippedItem, at: .root, Self.megabyte).message == String(repeating: "X", count: DecodingNotice.longestMessage) + "…")
    }
}
