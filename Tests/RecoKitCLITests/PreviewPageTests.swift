import Foundation
import Testing

/// What the preview's pages say and how they hold up offline and on a phone. The screenshots of
/// `Samples/preview-screenshot.sh` show the same pages; these tests pin what can be read from the HTML.
@Suite("recokit preview pages")
struct PreviewPageTests {
    typealias CLI = RenderPreviewCLI

    /// Previews the payloads into a new folder and returns it (the caller removes it).
    static func preview(_ payloads: [String]) throws -> URL {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["preview"] + payloads + ["-o", folder.path])
        #expect(result.status == 0, "\(result.err)")
        return folder
    }

    static func page(_ folder: URL, _ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func anErrorReplyIsNotSaidToHaveDecodedEveryProduct() throws {
        let folder = try Self.preview([CLI.payload("segmentify-error"), CLI.payload("8digits-error"), CLI.payload("segmentify-v3")])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["segmentify-error.html", "8digits-error.html"] {
            let html = try Self.page(folder, name)
            #expect(!html.contains("Every product decoded"), "\(name)")
            #expect(html.contains("Nothing to decode: an error reply carries no products."), "\(name)")
        }
        let recommendations = try Self.page(folder, "segmentify-v3.html")
        #expect(!recommendations.contains("Nothing to decode"))
    }

    @Test func aRetenoBlockHasATitleAndPricesInACurrencyAndSaysWhy() throws {
        let folder = try Self.preview([CLI.payload("reteno-recoms-full")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try Self.page(folder, "reteno-recoms-full.html")
        #expect(html.contains(">1. Recommended for you</h2>"))
        #expect(!html.contains("(no title)"))
        #expect(html.contains("$32.00") && !html.contains(">32.00<"))
        #expect(html.contains("Reteno replies carry neither a title nor a currency."))
    }

    /// Widget titles are in the page's language, English, unless `--lang` asks for another the vendor sent.
    @Test func titlesAreEnglishUnlessLangAsksOtherwise() throws {
        let english = try Self.preview([CLI.payload("segmentify-product-page")])
        defer { try? FileManager.default.removeItem(at: english) }
        let page = try Self.page(english, "segmentify-product-page.html")
        #expect(page.contains(">1. You May Also Like<") && page.contains(">4. Picked for You<"))
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["preview", CLI.payload("segmentify-product-page"), "--lang", "TR", "-o", folder.path])
        #expect(result.status == 0, "\(result.err)")
        let turkish = try Self.page(folder, "segmentify-product-page.html")
        #expect(turkish.contains(">1. Bunlar da İlginizi Çekebilir<") && turkish.contains(">4. Size Özel Öneriler<"))
    }

    /// Indented as JSON, and wrapped rather than clipped: a long line (the POST address, Reteno's
    /// `occurred`) breaks inside the box, keeping its indentation.
    @Test func trackingRequestBodiesAreIndentedAndWrapInsideTheirBox() throws {
        let folder = try Self.preview([CLI.payload("segmentify-v3")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try Self.page(folder, "segmentify-v3.html")
        #expect(html.contains("Origin: YOUR_DOMAIN\n\n[\n  {\n    &quot;instanceId&quot;: &quot;scn_6551a0b7c3d2e101&quot;,\n"))
        #expect(html.contains(".request pre{white-space:pre-wrap;overflow-wrap:anywhere}"))
    }

    @Test func theTextRenderingOfATurkishReplyHasNoEnglishWords() throws {
        let folder = try Self.preview([CLI.payload("segmentify-v3")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try Self.page(folder, "segmentify-v3.html")
        #expect(html.contains("1. Nike Academy Futbol Topu  599,90 TL → 449,90 TL (-25%)"))
        #expect(!html.contains("TL (was"))
    }

    @Test func theIndexStacksItsColumnsOnAPhone() throws {
        let folder = try Self.preview([CLI.payload("segmentify-v3")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try Self.page(folder, "index.html")
        for label in ["Payload", "Vendor", "What it is", "Widgets", "Report"] {
            #expect(html.contains("<td data-label=\"\(label)\">"), "\(label)")
        }
        #expect(html.contains("@media (max-width:640px){"))
        #expect(html.contains("<div class=\"card table-scroll\">"))
    }

    /// In a real browser (headless Chromium, when installed), an image that cannot load is replaced by
    /// the marked placeholder; the test skips, saying so, without Chromium.
    @Test func anImageThatCannotLoadBecomesAMarkedPlaceholder() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let payload = folder.appendingPathComponent("offline.json")
        try Data(#"{"recoms":[{"productId":"p1","name":"Lamp","price":5,"imageUrl":"missing/lamp.jpg"}]}"#.utf8).write(to: payload)
        let output = folder.appendingPathComponent("gallery")
        let result = try CLI.run(["preview", payload.path, "-o", output.path])
        #expect(result.status == 0, "\(result.err)")
        let page = output.appendingPathComponent("offline.html")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("image unavailable"))

        let candidates = [ProcessInfo.processInfo.environment["CHROMIUM"] ?? "", "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        let browser = candidates.first { !$0.isEmpty && FileManager.default.isExecutableFile(atPath: $0) }
        guard let browser else {
            print("skipped the browser half: no chromium (bash Tests/Browser/install-chromium.sh installs it)")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000", "--dump-dom", page.absoluteString]
        let dom = folder.appendingPathComponent("dom.html")
        _ = FileManager.default.createFile(atPath: dom.path, contents: nil)
        let handle = try FileHandle(forWritingTo: dom)
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let html = try String(contentsOf: dom, encoding: .utf8)
        let images = html.components(separatedBy: "<img").count - 1
        let placeholders = html.components(separatedBy: "data-unavailable=\"missing/lamp.jpg\"").count - 1
        #expect(images == 4, "the carousel, grid, list and email each show the product's image")
        #expect(placeholders == images, "every image that could not load is a placeholder:\n\(html.prefix(2000))")
        #expect(html.contains("title=\"image unavailable: missing/lamp.jpg\""))
    }
}
