import RecoTemplates
import Testing

/// Templates assembled at random from the fragments of every HTML context: each compiles and renders hostile
/// values, or fails with a located `TemplateError`; nothing traps (seeded; the seed is printed).
@Suite("Random HTML contexts")
struct RandomHTMLContextTests {
    static let fragments = [
        "{{v}}", "{{{v}}}", "{{#a}}", "{{/a}}", "{{^a}}", "{{>p}}", "{{$b}}", "{{/b}}", "<iframe srcdoc=\"", "<p title='", "'",
        "\"", "<style>", "</style>", " style=\"", "color:", "url(", ")", "<meta http-equiv=refresh", " content=\"", "<svg>",
        "<set attributeName=href", "<animate attributeName=\"opacity\"", " values=\"", " to=", "/>", "<a href=\"",
        "javascript:", "&colon;", "&#x3A;", ":", "/", "#", "?", "<script>", "</script>", " onclick=\"", " onclick=", "<base href=",
        "<!--", "-->", ">", "<", "</", " ", "\n", "=", "&", "<textarea>", "</textarea>", "x", "ç",
    ]

    @Test("random templates over every context compile and render, or fail with a located TemplateError")
    func randomContexts() throws {
        let seed: UInt64 = 0x4854_4D4C
        print("RandomHTMLContextTests seed: \(seed)")
        var generator = MalformedTemplateTests.Generator(state: seed)
        let library = try TemplateLibrary(templates: ["p": "<b>{{v}}</b>"])
        var compiled = 0
        for round in 0..<5000 {
            let count = 1 + generator.next(16)
            let source = (0..<count).map { _ in Self.fragments[generator.next(Self.fragments.count)] }.joined()
            let hostile = HTMLContextTests.hostile[generator.next(HTMLContextTests.hostile.count)]
            do {
                let template = try Template(source, name: "random")
                _ = try template.render(.object(["v": .string(hostile), "a": true]), partials: library)
                compiled += 1
            } catch {
                let lines = source.utf8.filter { $0 == 0x0A }.count + 1
                #expect(error.templateName == "random", "round \(round), seed \(seed): \(source.debugDescription): \(error)")
                #expect(error.kind != .syntax || (1...lines).contains(error.line ?? 0), "round \(round): \(source.debugDescription): \(error)")
                #expect(error.kind != .syntax || (error.column ?? 0) >= 1, "round \(round): \(source.debugDescription): \(error)")
            }
        }
        #expect(compiled > 500, "only \(compiled) of 5000 compiled")
    }
}
