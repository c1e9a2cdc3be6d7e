import Foundation
import Testing

@Suite("recokit preview")
struct PreviewCommandTests {
    @Test func writesAnIndexAndAPagePerPayloadEvenWhenOneFails() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("truncated.json")
        try Data("{\"statusCode\":\"SUCCESS\",\"responses\":[[".utf8).write(to: broken)
        let output = folder.appendingPathComponent("gallery")
        let result = try RenderPreviewCLI.run([
            "preview", RenderPreviewCLI.payload("segmentify-v3"), broken.path, RenderPreviewCLI.payload("segmentify-error"),
            RenderPreviewCLI.payload("reteno-recoms-full"), RenderPreviewCLI.payload("bloomreach-segments"), "-o", output.path,
        ])
        #expect(result.status == 1, "one payload failed")
        #expect(result.err.contains("1 payload failed: \(broken.path)"))
        // The reason too, on standard error, not only in its line of standard output.
        #expect(result.err.contains("error: \(broken.path): ") && result.err.contains("invalid JSON"), "\(result.err)")
        for page in ["index", "segmentify-v3", "truncated", "segmentify-error", "reteno-recoms-full", "bloomreach-segments"] {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("\(page).html").path), "\(page).html")
            #expect(result.out.contains("  \(page).html"), "one line per page")
        }
        let index = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        for page in ["segmentify-v3.html", "truncated.html", "segmentify-error.html", "reteno-recoms-full.html"] {
            #expect(index.contains("href=\"\(page)\""))
        }
        let order = ["truncated", "segmentify-v3", "reteno-recoms-full", "segmentify-error", "bloomreach-segments"].map { page in
            index.range(of: "href=\"\(page).html\"")?.lowerBound
        }
        #expect(order.compactMap { $0 }.count == 5 && order.compactMap { $0 } == order.compactMap { $0 }.sorted(),
                "the index lists the failure first, then widgets, then error replies, then other replies")
        let failed = try String(contentsOf: output.appendingPathComponent("truncated.html"), encoding: .utf8)
        #expect(failed.contains("could not be previewed") && failed.contains("invalid JSON"))
        let error = try String(contentsOf: output.appendingPathComponent("segmentify-error.html"), encoding: .utf8)
        #expect(error.contains("An error reply from segmentify") && error.contains("NO_DOMAIN_APIKEY_MATCH"))
        let segments = try String(contentsOf: output.appendingPathComponent("bloomreach-segments.html"), encoding: .utf8)
        #expect(segments.contains("This is a Bloomreach segments answer. It carries no recommendations") && segments.contains("discovery: 2 segments"))
        #expect(result.out.contains("bloomreach-segments.html  not recommendations: a Bloomreach segments answer"))
    }

    @Test func aPayloadPageShowsEveryWidgetInEveryTemplate() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try RenderPreviewCLI.run(["preview", RenderPreviewCLI.payload("segmentify-v3"), "-o", folder.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("segmentify-v3.html  2 widgets, 12 products"))
        let page = try String(contentsOf: folder.appendingPathComponent("segmentify-v3.html"), encoding: .utf8)
        for layout in ["reco-carousel", "reco-grid", "reco-list"] {
            #expect(page.components(separatedBy: "class=\"reco \(layout)\"").count == 3, "\(layout) once per widget")
        }
        #expect(page.components(separatedBy: "<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" style=\"width:100%;max-width:600px").count == 3)
        #expect(page.contains("<pre>Deals of the Day\n\n1. Nike Academy Futbol Topu"), "the text rendering, escaped into a pre, titled in English")
        #expect(page.contains("Decoding report"))
        #expect(page.contains("Tracking requests"))
        #expect(page.components(separatedBy: "POST https://YOUR_DATA_CENTER.segmentify.com/add/events/v1.json?apiKey=YOUR_API_KEY").count == 7,
                "impression, widget view and click for each of the two widgets")
        #expect(page.contains("&quot;interactionId&quot;: &quot;act_6551a0b7c3d2e102&quot;,\n    &quot;name&quot;: &quot;INTERACTION&quot;"))
        #expect(page.contains("&quot;instanceId&quot;: &quot;scn_6551a0b7c3d2e101&quot;,\n    &quot;interactionId&quot;: &quot;100900&quot;"), "the first product's click")
        #expect(page.components(separatedBy: "<style>").count == 3, "the gallery's stylesheet and the blocks' stylesheet, once each")
        let ids = page.components(separatedBy: " id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(Set(ids).count == ids.count, "HTML ids are unique on the page")
    }

    @Test func withNoPayloadItPreviewsTheSamplesFromThePackageFolder() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try RenderPreviewCLI.run(["preview", "-o", folder.path], in: RenderPreviewCLI.packageRoot.appendingPathComponent("Sources"))
        #expect(result.status == 0, "\(result.err)")
        let samples = try FileManager.default.contentsOfDirectory(atPath: RenderPreviewCLI.packageRoot.appendingPathComponent("Samples/Payloads").path)
            .filter { $0.hasSuffix(".json") }
        #expect(result.out.contains("Wrote \(samples.count + 1) pages to \(folder.standardizedFileURL.path)/"))
        for sample in samples {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(sample.replacingOccurrences(of: ".json", with: ".html")).path))
        }
    }
}
