import RecoTemplates
import Testing

/// Templates assembled from random Mustache and HTML fragments: each one either compiles and renders, or
/// fails with a `TemplateError` that names a line and column inside the text; nothing traps.
@Suite("Malformed templates")
struct MalformedTemplateTests {
    static let fragments = [
        "{{", "}}", "{{#a}}", "{{/a}}", "{{^a}}", "{{#b}}", "{{/b}}", "{{>p}}", "{{>*name}}", "{{<p}}", "{{/p}}",
        "{{$a}}", "{{$b}}", "{{!c}}", "{{=<% %>=}}", "<%a%>", "<%={{ }}=%>", "{{{a}}}", "{{&a}}", "{{a}}", "{{a.b}}",
        "{{.}}", "\n", "\r\n", "  ", "\t", "x", "ç", "<a href=\"", "\"", "'", "<script>", "</script>", "<!--", "-->", "=",
        "<img src=", ">", "{", "}", "{{#}}", "{{a b}}", "{{=x=}}",
    ]

    /// A small deterministic generator (so a failure can be reproduced from its seed).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test("random templates compile and render, or fail with a located TemplateError")
    func randomTemplates() throws {
        var generator = Generator(state: 2026)
        let library = try TemplateLibrary(templates: ["p": "[{{$a}}pa{{/a}}{{a}}]"])
        let value = TemplateValue.object(["a": "<A & 'a'>", "b": [1, 2], "name": "p"])
        var compiled = 0
        for _ in 0..<3000 {
            let count = 1 + generator.next(14)
            let source = (0..<count).map { _ in Self.fragments[generator.next(Self.fragments.count)] }.joined()
            do {
                let template = try Template(source, name: "random")
                _ = try template.render(value, partials: library)
                compiled += 1
            } catch {
                let lines = source.utf8.filter { $0 == 0x0A }.count + 1
                #expect(error.templateName == "random", "\(source.debugDescription): \(error)")
                if error.kind == .syntax {
                    #expect((1...lines).contains(error.line ?? 0), "\(source.debugDescription): \(error)")
                    #expect((error.column ?? 0) >= 1, "\(source.debugDescription): \(error)")
                }
            }
        }
        #expect(compiled > 300)
    }
}
