import Foundation
import Testing

@Suite("recokit preview: one payload's failure never stops the gallery")
struct PreviewIsolationTests {
    /// A payload whose process crashes (injected with RECOKIT_PREVIEW_TEST_CRASH, as a decoder crash
    /// would) gets a page saying so and heads the index; every other payload is still written. The
    /// hostile payloads among them (an itemCount of Int.max, which crashed the decoder before, and
    /// invalid JSON) are previewed or reported on their pages too.
    @Test func aCrashingPayloadCostsOnlyItsOwnPage() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = try String(contentsOfFile: RenderPreviewCLI.payload("segmentify-home-page"), encoding: .utf8)
        let hugeCount = folder.appendingPathComponent("huge-count.json")
        try Data(sample.replacingOccurrences(of: #"\"itemCount\":\"4\""#, with: #"\"itemCount\":9223372036854775807"#).utf8).write(to: hugeCount)
        let crashing = folder.appendingPathComponent("crashing.json")
        try Data(sample.utf8).write(to: crashing)
        let truncated = folder.appendingPathComponent("truncated.json")
        try Data(sample.prefix(500).utf8).write(to: truncated)
        let output = folder.appendingPathComponent("gallery")

        let process = Process()
        process.executableURL = try RenderPreviewCLI.executable()
        process.arguments = ["preview", RenderPreviewCLI.payload("reteno-recoms-full"), crashing.path, hugeCount.path, truncated.path,
                             RenderPreviewCLI.payload("segmentify-v3"), "-o", output.path]
        var environment = ProcessInfo.processInfo.environment
        environment["RECOKIT_PREVIEW_TEST_CRASH"] = "/crashing.json"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()

        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "the gallery is written; two payloads failed")
        for page in ["index", "reteno-recoms-full", "crashing", "huge-count", "truncated", "segmentify-v3"] {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("\(page).html").path), "\(page).html")
        }
        let crashed = try String(contentsOf: output.appendingPathComponent("crashing.html"), encoding: .utf8)
        #expect(crashed.contains("could not be previewed") && crashed.contains("recokit crashed while previewing this payload (signal"))
        let huge = try String(contentsOf: output.appendingPathComponent("huge-count.html"), encoding: .utf8)
        #expect(huge.contains("limitReached") && huge.contains("ReplyLimits.itemCount"))
        let index = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        let order = ["crashing", "truncated", "reteno-recoms-full", "huge-count", "segmentify-v3"].map { index.range(of: "href=\"\($0).html\"")?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "failures first, then widgets, in file order")
        let good = try String(contentsOf: output.appendingPathComponent("segmentify-v3.html"), encoding: .utf8)
        #expect(good.contains("data-reco-instance-id"), "a payload after the crash is previewed in full")
    }

    /// A widget with more products than a page shows is cut, and the page says so.
    @Test func aLargeWidgetIsCutAndThePageSaysSo() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: RenderPreviewCLI.payload("reteno-recoms-full")))) as! [String: Any]
        let products = sample["recoms"] as! [[String: Any]]
        let many = (0..<250).map { index -> [String: Any] in
            var product = products[index % products.count]
            product["productId"] = "P\(index)"
            return product
        }
        let file = folder.appendingPathComponent("many.json")
        try JSONSerialization.data(withJSONObject: ["recoms": many]).write(to: file)
        let output = folder.appendingPathComponent("gallery")
        let result = try RenderPreviewCLI.run(["preview", file.path, "-o", output.path])
        #expect(result.status == 0, "\(result.err)")
        let page = try String(contentsOf: output.appendingPathComponent("many.html"), encoding: .utf8)
        #expect(page.contains("This widget has 250 products; the preview shows the first 100"))
        #expect(page.contains("data-reco-product-id=\"P99\"") && !page.contains("data-reco-product-id=\"P100\""))
    }

    /// A reply of many blocks makes a page of its first 50, and the page says so.
    @Test func aReplyOfManyWidgetsIsCutAndThePageSaysSo() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var reply = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: RenderPreviewCLI.payload("segmentify-v3")))) as! [String: Any]
        var block = (reply["responses"] as! [[[String: Any]]])[0][0]
        var params = block["params"] as! [String: Any]
        params["elimination"] = "NO_ELIMINATION"
        block["params"] = params
        reply["responses"] = [Array(repeating: block, count: 60)]
        let file = folder.appendingPathComponent("many-widgets.json")
        try JSONSerialization.data(withJSONObject: reply).write(to: file)
        let output = folder.appendingPathComponent("gallery")
        let result = try RenderPreviewCLI.run(["preview", file.path, "-o", output.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("60 widgets"))
        let page = try String(contentsOf: output.appendingPathComponent("many-widgets.html"), encoding: .utf8)
        #expect(page.contains("This payload has 60 widgets; the preview shows the first 50"))
        #expect(page.contains("id=\"widget-50\"") && !page.contains("id=\"widget-51\""))
    }
}
