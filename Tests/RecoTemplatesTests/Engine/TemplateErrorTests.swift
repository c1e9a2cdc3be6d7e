import Foundation
import RecoTemplates
import Testing

@Suite("Template errors")
struct TemplateErrorTests {
    private func error(_ source: String, name: String = "carousel") -> TemplateError? {
        #expect(throws: TemplateError.self) { try Template(source, name: name) }
    }

    @Test("an unclosed section names the template, line, column and the closing tag expected")
    func unclosedSection() {
        let source = "<ul>\n  <li>{{title}}</li>\n    {{#products}}\n  <li>{{name}}</li>\n</ul>\n"
        let failure = error(source)
        #expect(failure?.description == #"carousel:3:5: unclosed section "products", expected {{/products}}"#)
        #expect(failure?.kind == .syntax)
        #expect(failure?.line == 3)
        #expect(failure?.column == 5)
    }

    @Test("a mismatched closing tag says which one was expected")
    func mismatched() {
        let failure = error("{{#a}}\n{{#b}}x{{/a}}{{/b}}")
        #expect(failure?.description == #"carousel:2:8: mismatched closing tag {{/a}}, expected {{/b}} to close the section "b" opened at line 2"#)
    }

    @Test("a closing tag with nothing open")
    func unexpectedClose() {
        #expect(error("x\n  {{/items}}")?.description == "carousel:2:3: unexpected closing tag {{/items}}, no section is open")
    }

    @Test("an unclosed tag, with the delimiters in force")
    func unclosedTag() {
        #expect(error("Hello {{name")?.description == #"carousel:1:7: unclosed tag, expected "}}""#)
        #expect(error("{{=<% %>=}}\nHi <%name")?.description == #"carousel:2:4: unclosed tag, expected "%>""#)
        #expect(error("{{{name}}")?.description == #"carousel:1:1: unclosed tag, expected "}}}""#)
    }

    @Test("a bad set-delimiter tag")
    func badDelimiter() {
        let failure = error("a\nb {{=<%=}}")
        #expect(failure?.line == 2)
        #expect(failure?.column == 3)
        #expect(failure?.message.hasPrefix(#"bad delimiter "<%", expected two delimiters"#) == true)
        #expect(error("{{=<% %> x=}}")?.kind == .syntax)
    }

    @Test("empty and malformed names")
    func names() {
        #expect(error("{{#}}{{/}}")?.description == "carousel:1:1: empty tag {{#}}, expected a name")
        #expect(error("{{a b}}")?.description == "carousel:1:1: invalid name in {{a b}}, expected a name without spaces")
        #expect(error("{{a..b}}")?.kind == .syntax)
    }

    @Test("columns count characters, not bytes")
    func unicodeColumns() {
        #expect(error("Ürünler: {{#items}}")?.column == 10)
    }

    @Test("a partial or parent that does not exist fails when the library is loaded")
    func missingAtLoad() {
        let partial = #expect(throws: TemplateError.self) {
            try TemplateLibrary(templates: ["page": "<main>\n  {{>footer}}\n</main>", "header": "<h1>{{title}}</h1>"])
        }
        #expect(partial?.kind == .unknownPartial)
        #expect(partial?.description == #"page:2:3: unknown partial "footer", expected a template of that name in the library"#)

        let parent = #expect(throws: TemplateError.self) {
            try TemplateLibrary(templates: ["home": "{{<layout}}{{$body}}Hi{{/body}}{{/layout}}"])
        }
        #expect(parent?.kind == .unknownParent)
        #expect(parent?.description == #"home:1:1: unknown parent "layout", expected a template of that name in the library"#)
    }

    @Test("a template checked against a library fails at load; unchecked, it fails at render, never renders empty")
    func templateAgainstLibrary() throws {
        let library = try TemplateLibrary(templates: ["price": "{{amount}}"])
        #expect(throws: TemplateError.self) { try Template("{{>prize}}", name: "item", partials: library) }
        let checked = try Template("{{>price}}", name: "item", partials: library)
        #expect(try checked.render(.object(["amount": "9.90"]), partials: library) == "9.90")
        let unchecked = try Template("a {{>price}}", name: "item")
        let failure = #expect(throws: TemplateError.self) { try unchecked.render(.null) }
        #expect(failure?.description == #"item:1:3: unknown partial "price", expected a template of that name in the library"#)
    }

    @Test("a dynamic partial naming no template fails at render by default, renders empty when asked")
    func dynamicMissing() throws {
        let strict = try TemplateLibrary(templates: ["page": "[{{>*kind}}]", "card": "card"])
        #expect(try strict.render("page", .object(["kind": "card"])) == "[card]")
        #expect(try strict.render("page", .object([:])) == "[]")
        let failure = #expect(throws: TemplateError.self) { try strict.render("page", .object(["kind": "banner"])) }
        #expect(failure?.description == #"page:1:2: unknown partial "banner" (the value of "*kind"), expected a template of that name in the library"#)
        let lenient = try TemplateLibrary(templates: ["page": "[{{>*kind}}]"], missingPartials: .renderEmpty)
        #expect(try lenient.render("page", .object(["kind": "banner"])) == "[]")
    }

    @Test("partials that include themselves without end stop with an error")
    func endlessRecursion() throws {
        let library = try TemplateLibrary(templates: ["loop": "x{{>loop}}"])
        let failure = #expect(throws: TemplateError.self) { try library.render("loop", .null) }
        #expect(failure?.kind == .tooDeep)
    }

    @Test("a partial that includes itself inside sections stops with an error, not a stack overflow")
    func endlessRecursionInsideSections() throws {
        // Only inclusions counted before: 200 of them, each inside 60 sections, overflowed an 8 MB stack.
        let library = try TemplateLibrary(templates: ["loop": String(repeating: "{{^no}}", count: 60) + "x{{>loop}}" + String(repeating: "{{/no}}", count: 60)])
        let failure = #expect(throws: TemplateError.self) { try library.render("loop", .null) }
        #expect(failure?.kind == .tooDeep)
        #expect(failure?.line == 1 && failure?.column == 422)
    }

    @Test("sections nest at most 100 deep in a template, refused with the place of the one too deep")
    func nestingLimit() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "{{#a}}\n", count: depth) + "{{b}}" + String(repeating: "{{/a}}", count: depth)
        }
        let deepest = try Template(nested(100), name: "deep")
        #expect(try deepest.render(.object(["a": true, "b": "x"])) == "x")
        let failure = #expect(throws: TemplateError.self) { try Template(nested(101), name: "deeper") }
        #expect(failure?.description == #"deeper:101:1: "a" opens a level 101 deep, expected sections, parents and blocks nested at most 100 deep"#)
        // About 7,700 levels crashed the compiler (a 200 KB template): refused the same way.
        #expect(throws: TemplateError.self) { try Template(nested(8_000), name: "deepest") }
        #expect(throws: TemplateError.self) { try Template(String(repeating: "{{<p}}{{$b}}", count: 60) + String(repeating: "{{/b}}{{/p}}", count: 60), name: "blocks") }
    }

    @Test("asking a library for a template it does not hold")
    func unknownTemplate() throws {
        let library = try TemplateLibrary(templates: ["grid": "g", "list": "l"])
        let failure = #expect(throws: TemplateError.self) { try library.render("carousel", .null) }
        #expect(failure?.description == #"carousel: no template named "carousel" (known: grid, list)"#)
    }
}
