import Foundation
import Testing
import RecoPage

/// The impression policy's table: who records, and what consent does with a visitor's interactions.
@Suite("Impression policy")
struct ImpressionPolicyTests {
    static let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"

    struct Row: Sendable, CustomTestStringConvertible {
        let userAgent: String?
        let headers: [String: String]
        let expected: PageVisit.Kind
        let detail: String
        var testDescription: String { "\(userAgent ?? "no agent") \(headers) → \(expected)" }
    }

    static let table: [Row] = [
        Row(userAgent: chrome, headers: [:], expected: .visitor, detail: ""),
        Row(userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1", headers: [:], expected: .visitor, detail: ""),
        Row(userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", headers: [:], expected: .bot, detail: "googlebot"),
        Row(userAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", headers: [:], expected: .bot, detail: "bingbot"),
        Row(userAgent: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", headers: [:], expected: .bot, detail: "facebookexternalhit"),
        Row(userAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", headers: [:], expected: .bot, detail: "gptbot"),
        Row(userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36", headers: [:], expected: .bot, detail: "headlesschrome"),
        Row(userAgent: "curl/8.5.0", headers: [:], expected: .bot, detail: "curl/"),
        Row(userAgent: "SomeNewCrawler/0.1", headers: [:], expected: .bot, detail: "crawler"),
        Row(userAgent: nil, headers: [:], expected: .bot, detail: "no User-Agent"),
        Row(userAgent: "  ", headers: [:], expected: .bot, detail: "no User-Agent"),
        Row(userAgent: "\t \u{00A0}\u{2003}", headers: [:], expected: .bot, detail: "no User-Agent"),
        Row(userAgent: "\n", headers: [:], expected: .visitor, detail: ""),
        Row(userAgent: chrome, headers: ["SEC-PURPOSE": "Prefetch"], expected: .prefetch, detail: "SEC-PURPOSE: Prefetch"),
        Row(userAgent: chrome, headers: ["Sec-Purpose-Extra": "prefetch", "Sec-Purpos": "prefetch"], expected: .visitor, detail: ""),
        Row(userAgent: chrome, headers: ["Sec-Purpose": "prefetch"], expected: .prefetch, detail: "Sec-Purpose: prefetch"),
        Row(userAgent: chrome, headers: ["sec-purpose": "prefetch;prerender"], expected: .prefetch, detail: "sec-purpose: prefetch;prerender"),
        Row(userAgent: chrome, headers: ["Purpose": "prefetch"], expected: .prefetch, detail: "Purpose: prefetch"),
        Row(userAgent: chrome, headers: ["X-Moz": "prefetch"], expected: .prefetch, detail: "X-Moz: prefetch"),
        Row(userAgent: chrome, headers: ["Sec-Fetch-Mode": "navigate", "Purpose": "other"], expected: .visitor, detail: ""),
    ]

    @Test(arguments: table)
    func whoRecords(row: Row) {
        let visit = ImpressionPolicy().visit(userAgent: row.userAgent, headers: row.headers.map { (name: $0.key, value: $0.value) })
        #expect(visit.kind == row.expected)
        #expect(visit.detail == row.detail)
        #expect(visit.records == (row.expected == .visitor))
    }

    @Test func theUserAgentIsReadFromTheHeaders() {
        let policy = ImpressionPolicy(bots: KnownBots.builtIn.adding(["shop-monitor"]))
        #expect(policy.visit(headers: [("user-agent", "shop-monitor/1.0")]).kind == .bot)
        #expect(policy.visit(headers: [("User-Agent", Self.chrome)]).kind == .visitor)
    }

    @Test func theBuiltInListIsTheShippedFile() throws {
        let file = Fixtures.root.appendingPathComponent("Sources/RecoPage/Impressions/known-bots.txt")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == KnownBots.builtInText + "\n", "known-bots.txt and KnownBots+BuiltIn.swift differ: regenerate the Swift copy from the file")
        #expect(try KnownBots(contentsOf: file) == KnownBots.builtIn)
        #expect(KnownBots.builtIn.tokens.count > 50)
        #expect(!KnownBots.builtIn.tokens.contains { $0.hasPrefix("#") || $0.isEmpty })
    }
}
