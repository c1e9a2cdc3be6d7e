import Foundation
import Testing
import RecoKitTesting
import RecoTemplates
import RecoVendors

/// Every built-in template on every sample payload that holds widgets, against golden files.
@Suite("Golden renderings")
struct GoldenRenderingTests {
    static let templates = ["carousel", "grid", "list", "email", "text"]

    /// The sample payloads that decode to at least one widget, by name.
    static func samples() throws -> [(name: String, reply: Recommendations<RawProduct>)] {
        var samples: [(String, Recommendations<RawProduct>)] = []
        for name in try SamplePayloads.names {
            guard let reply = try? VendorPayloads.decode(SamplePayloads.data(named: name)), !reply.widgets.isEmpty else { continue }
            samples.append((name, reply))
        }
        return samples
    }

    @Test(arguments: templates)
    func builtInTemplateOnEverySample(template: String) throws {
        let samples = try Self.samples()
        #expect(samples.count >= 3, "expected Segmentify and Reteno sample payloads with widgets")
        let renderer = WidgetRenderer()
        let fileExtension = BuiltInTemplates.plainText.contains(template) ? "txt" : "html"
        for sample in samples {
            let output = try renderer.render(sample.reply.widgets, template: template)
            #expect(!output.isEmpty)
            GoldenFile.expect(output, matches: "\(sample.name).\(template).\(fileExtension)")
        }
    }

    @Test func everyGoldenFileBelongsToASampleAndTemplate() throws {
        guard !GoldenFile.isRecording else { return }
        let expected = Set(try Self.samples().flatMap { sample in
            Self.templates.map { "\(sample.name).\($0).\(BuiltInTemplates.plainText.contains($0) ? "txt" : "html")" }
        })
        let present = Set((try? FileManager.default.contentsOfDirectory(atPath: GoldenFile.folder.path)) ?? [])
        #expect(present.subtracting(expected).isEmpty, "stale golden files: \(present.subtracting(expected).sorted())")
    }
}
