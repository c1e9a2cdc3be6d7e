import Foundation
import Testing
import RecoVendors

/// The README's first example, word for word, and a test that its output is what the README shows.
/// If this test fails, update the README (the example or its output), not just the test.
private struct Product: RecommendableProduct {
    let productId: String
    let name: String
    let price: Decimal
    let brand: String?
}

private func readmeExample(print: (String) -> Void) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: "Samples/Payloads/segmentify-product-page.json"))
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
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(Self.root.path)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        var lines: [String] = []
        try readmeExample { lines.append($0) }
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- output of the example above -->\n```text\n"
        let start = try #require(readme.range(of: marker), "README.md has no marked output block")
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        #expect(String(readme[start.upperBound..<end.lowerBound]) == lines.joined(separator: "\n"))
        #expect(readme.contains("reply.decoded(as: Product.self, filters: [ProductFilter(name: \"brand\", values: [\"nike\", \"asics\"])])"))
    }
}
