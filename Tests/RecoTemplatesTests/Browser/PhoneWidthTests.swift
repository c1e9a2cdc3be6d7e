import Foundation
import RecoKitTesting
import RecoTemplates
import RecoVendors
import Testing

/// Every built-in HTML template, on every sample payload, loaded in headless Chromium at a phone's width
/// (390 px): the page must not be wider than the screen. A carousel scrolls inside its own box; nothing of
/// it may stick out of the page.
///
/// Found by the storefront's browser test: the visually hidden "was" price text (`.reco-sr`, positioned
/// absolutely) had no positioned ancestor inside the carousel's scroll box, so it was laid out against
/// the page and made a product page 1,340 px wide on a phone.
@Suite("Built-in templates at phone width", .enabled(if: HeadlessChromium.installed != nil, HeadlessChromium.missingReason))
struct PhoneWidthTests {
    static let width = 390

    @Test(arguments: ["carousel", "grid", "list", "email"])
    func nothingIsWiderThanThePhone(template: String) throws {
        let renderer = WidgetRenderer()
        var blocks: [String] = []
        for sample in try GoldenRenderingTests.samples() {
            blocks.append(try renderer.render(sample.reply.widgets, template: template))
        }
        // The page writes how wide its content is into the DOM, which Chromium then prints.
        let page = """
            <!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
            <style>body{margin:8px}</style></head><body>\(blocks.joined(separator: "\n"))
            <script>window.addEventListener("load", () => {
              const root = document.documentElement;
              document.body.setAttribute("data-widths", root.scrollWidth + " " + root.clientWidth);
            });</script>
            </body></html>
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reco-phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(template).html")
        try page.write(to: file, atomically: true, encoding: .utf8)
        let chromium = try #require(HeadlessChromium.installed)
        let dom = try chromium.dumpDOM(of: file, windowSize: (Self.width, 844))
        let widths = try #require(dom.firstMatch(of: /data-widths="(\d+) (\d+)"/), "the page did not report its widths").output
        let (content, viewport) = (try #require(Int(widths.1)), try #require(Int(widths.2)))
        // Headless Chromium may keep the window wider than asked (a minimum near 500 px): the check is that
        // the page scrolls sideways not at all, whatever the viewport came out as.
        #expect(content <= viewport, "the \(template) page is \(content) px wide in a \(viewport) px viewport (asked for \(Self.width))")
    }
}
