import RecoDestinations
import Foundation
import Testing
import RecoVendors
import RecoTemplates
import RecoTracking
import RecoKitTesting

/// The README's first example, word for word, and a test that its output is what the README shows.
/// If this test fails, update the README (the example or its output), not just the test.
/// (`DocumentationSnippetTests` also builds the README's own text of it as a program and runs it.)
private struct Product: RecommendableProduct {
    let productId: String
    let name: String
    let price: Decimal
    let brand: String?
}

private func readmeExample(print: (String) -> Void) throws {
    let data = try SamplePayloads.data(named: "segmentify-product-page")   // in your server: the reply's body
    let reply = try SegmentifyRecommendations.decode(data, language: "EN")
    let products = reply.decoded(as: Product.self, filters: [ProductFilter(name: "brand", values: ["nike", "asics"])])

    for widget in products.widgets {
        print("\(widget.title) [\(widget.instanceId)]")
        for item in widget.items {
            print("  \(item.position). \(item.product.name): \(item.product.price) \(item.raw["currency"]?.stringValue ?? "")")
        }
    }
    for failure in products.report.failures { print("failed: \(failure)") }
}

@Suite("README")
struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theFirstExamplePrintsWhatTheReadmeShows() throws {
        var lines: [String] = []
        try readmeExample { lines.append($0) }
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- output of the example above -->\n```text\n"
        let start = try #require(readme.range(of: marker), "README.md has no marked output block")
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        #expect(String(readme[start.upperBound..<end.lowerBound]) == lines.joined(separator: "\n"))
        #expect(readme.contains("reply.decoded(as: Product.self, filters: [ProductFilter(name: \"brand\", values: [\"nike\", \"asics\"])])"))
        #expect(readme.contains("let data = try SamplePayloads.data(named: \"segmentify-product-page\")   // in your server: the reply's body"))
    }
}

/// The README's later examples, as written there, so that they keep compiling; the rendering and
/// testing ones also run.
@Suite("README, later examples")
struct ReadmeLaterExamplesTests {
    @Test func theRenderingExampleRendersBothFormats() throws {
        let data = try Data(contentsOf: ReadmeExampleTests.root.appendingPathComponent("Samples/Payloads/segmentify-product-page.json"))
        let products = try SegmentifyRecommendations.decode(data, language: "EN").decoded(as: Product.self)

        let renderer = WidgetRenderer()                                  // the built-in templates
        let html = try renderer.render(products.widgets, template: "carousel")   // or grid, list, email
        let text = try renderer.render(products.widgets[0], template: "text")    // for terminals and text mail

        #expect(html.components(separatedBy: "data-reco-instance-id=").count - 1 == products.widgets.count)
        #expect(text.hasPrefix("You May Also Like"))
    }

    @Test func theTestingExampleDecodesTheSample() throws {
        let reply = try expectDecodes(Product.self, fromSample: "segmentify-product-page", language: "EN")
        #expect(reply.widgets.count == 4)
    }

    /// Compiled, not run: it needs a vendor.
    fileprivate func trackingExample(key: String, userId: String, sessionId: String, widget: Widget<Product>) async throws {
        let store = try JournalStore(directory: URL(fileURLWithPath: "/var/lib/shop/tracking/segmentify"))
        let tracker = Tracker(destination: SegmentifyDestination(dataCenter: URL(string: "https://gandalf.segmentify.com")!,
                                                                 apiKey: key, origin: "shop.example"),
                              store: store)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await tracker.run() }   // delivers until cancelled, then drains
            let visitor = InteractionContext(userId: userId, sessionId: sessionId, lang: "TR")
            try tracker.track(.impression(of: widget, context: visitor))
            try tracker.track(.click(productId: "101", in: widget, context: visitor), shownIn: widget)
            group.cancelAll()
        }
    }
}
