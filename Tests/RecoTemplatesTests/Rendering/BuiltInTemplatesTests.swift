import Foundation
import Testing
import RecoTemplates

@Suite("Built-in templates")
struct BuiltInTemplatesTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Templates", isDirectory: true)

    @Test func libraryCopiesAreIdenticalToTheFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".mustache") }
        let names = Set(files.map { String($0.dropLast(".mustache".count)) })
        #expect(names == Set(BuiltInTemplates.sources.keys), "Templates/ and BuiltInTemplates differ in names; run python3 Templates/generate.py")
        for name in names.sorted() {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name + ".mustache"), encoding: .utf8)
            #expect(BuiltInTemplates.sources[name] == text, "Templates/\(name).mustache differs from its built-in copy; run python3 Templates/generate.py")
        }
    }

    @Test func everyBuiltInTemplateIsInTheLibrary() {
        for name in ["carousel", "grid", "list", "email", "text", "reco-block", "reco-style"] {
            #expect(TemplateLibrary.builtIn.template(named: name) != nil, "\(name) is missing")
        }
    }

    @Test func noTripleMustacheOrScriptInTheBuiltInTemplates() {
        for (name, text) in BuiltInTemplates.sources {
            #expect(!text.contains("{{{") && !text.contains("{{&"), "\(name) writes raw text")
            #expect(!text.lowercased().contains("<script"), "\(name) uses JavaScript")
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("@import"), "\(name) loads an external asset")
        }
    }
}
