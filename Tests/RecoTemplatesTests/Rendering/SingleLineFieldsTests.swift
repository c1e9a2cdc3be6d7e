import Foundation
import Testing
import RecoTemplates
import RecoVendors

/// The Reteno sample with its first product's fields replaced by hostile text.
private func hostileReteno(_ fields: [String: JSONValue]) throws -> Widget<RawProduct> {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let data = try Data(contentsOf: root.appendingPathComponent("Samples/Payloads/reteno-recoms-full.json"))
    guard case .object(var members) = try JSONValue(parsing: data), case .array(var recoms)? = members["recoms"],
          case .object(var first)? = recoms.first else { throw CocoaError(.fileReadCorruptFile) }
    for (key, value) in fields { first[key] = value }
    recoms[0] = .object(first)
    members["recoms"] = .array(recoms)
    let reply = try RetenoRecoms.decode(.object(members), variantId: RetenoVariantId("r1v1"), title: "Picked for you")
    return try #require(reply.widgets.first)
}

@Suite("Single-line fields in the text rendering")
struct SingleLineFieldsTests {
    /// A vendor's CR/LF in a name, price or brand forged a line ("2. Fake $0.01") in a text e-mail.
    @Test(arguments: [
        ["name": JSONValue.string("Yoga Mat\r\n2. Fake $0.01")],
        ["name": "Yoga Mat\n2. Fake $0.01", "priceText": "10 EUR\n3. Fake $0.02"],
        ["name": "Yoga Mat\u{2028}2. Fake $0.01"],
        ["name": "Yoga Mat\u{85}2. Fake\u{0B}\u{0C}$0.01\u{1B}[2J"],
        ["url": "https://shop.example.com/p\n2. Fake $0.01"],
    ])
    func aValueCannotForgeALine(fields: [String: JSONValue]) throws {
        let normal = try WidgetRenderer().render(try hostileReteno([:]), template: "text")
        let text = try WidgetRenderer().render(try hostileReteno(fields), template: "text")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == normal.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(!lines.contains { $0.hasPrefix("2. Fake") || $0.hasPrefix("3. Fake") })
        #expect(!text.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}") })
        #expect(text.contains("Fake"), "the text is kept, on its line")
    }

    @Test func aTitleAndABrandStayOnOneLine() throws {
        let widget = try SampleWidgets.widget([#"{"productId":"p1","name":"Lamp","brand":"Acme\r\nInjected"}"#], title: "For you\n1. Fake")
        let text = try WidgetRenderer().render(widget, template: "text")
        #expect(text == "For you 1. Fake\n\n1. Lamp\n")
        let branded = try Template("{{#products}}{{brand}}|{{#tags}}{{.}};{{/tags}}{{/products}}").render(
            .context(WidgetContext(try SampleWidgets.widget([#"{"productId":"p1","brand":"Acme\r\nInjected","tags":["a\nb","c\td"]}"#]))))
        #expect(branded == "Acme Injected|a b;c d;")
    }
}

@Suite("Many blocks on one page")
struct ManyBlocksTests {
    /// Each block of one instance id walked every suffix already given (quadratic in the blocks); the
    /// ids are still the smallest free ones, an id that another block's own instance id took included.
    @Test func blocksOfOneInstanceIdGetTheSmallestFreeIds() throws {
        let ids = ["a", "a-2", "a", "a", "b", "a"] + Array(repeating: "a", count: 2_000)
        let widgets = try ids.map { try SampleWidgets.widget([#"{"productId":"p1","name":"Lamp"}"#], instanceId: $0) }
        let page = try WidgetRenderer().render(widgets, template: "list")
        let expected = ["reco-a", "reco-a-2", "reco-a-3", "reco-a-4", "reco-b", "reco-a-5"] + (6..<2_006).map { "reco-a-\($0)" }
        let found = page.components(separatedBy: " id=\"reco-").dropFirst().map { "reco-" + $0.prefix { $0 != "\"" } }.filter { !$0.hasSuffix("-title") }
        #expect(found == expected)
    }
}
