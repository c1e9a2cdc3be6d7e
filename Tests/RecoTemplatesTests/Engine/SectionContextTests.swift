import RecoTemplates
import Testing

/// Sections may be skipped or repeated, and partials and blocks are compiled on their own: none of them
/// may change where a value stands in the HTML behind the engine's back.
@Suite("HTML contexts across sections, partials and blocks")
struct SectionContextTests {
    @Test("a value after a section that may settle a URL's scheme is read as if it had not")
    func sectionBeforeURLValue() throws {
        let template = try Template(#"<a href="{{#rel}}/{{/rel}}{{u}}">x</a>"#)
        #expect(try template.render(.object(["u": "javascript:alert(1)"])) == #"<a href="">x</a>"#)
        #expect(try template.render(.object(["u": "javascript:alert(1)", "rel": true])) == #"<a href="/">x</a>"#)
        #expect(try template.render(.object(["u": "p/1", "rel": true])) == #"<a href="/p/1">x</a>"#)
    }

    @Test(
        "a section that ends in another context than it begins, or leaves a tag's names in doubt, is refused",
        arguments: [
            (#"{{#a}}<a href="{{/a}}x">"#, "card:1:16: section \"a\" ends in another HTML context than it begins"),
            ("<p>\n{{#a}}<script>{{/a}}x</script>", "card:2:15: section \"a\" ends in another HTML context"),
            (#"<a {{#x}}data-{{/x}}href="{{u}}">"#, "card:1:21: after a section inside a tag, expected a space, '/' or '>'"),
            (#"<a{{#x}}bbr{{/x}} title="{{u}}">"#, "card:1:12: section \"x\" ends in another HTML context"),
        ])
    func sectionRefused(_ source: String, _ expected: String) {
        #expect(HTMLContextTests.refusal(source)?.hasPrefix(expected) == true, "\(HTMLContextTests.refusal(source) ?? "compiled")")
    }

    @Test("sections that add whole attributes inside a tag are fine")
    func sectionsInTags() throws {
        let template = try Template(#"<details{{#open}} open{{/open}} title="{{t}}"><a {{#l}}href="{{l}}"{{/l}}{{^l}}aria-disabled="true"{{/l}}>x</a></details>"#)
        #expect(try template.render(.object(["open": true, "t": "a\"b", "l": "javascript:x"])) == #"<details open title="a&quot;b"><a href="about:invalid">x</a></details>"#)
        #expect(try template.render(.object(["t": "x"])) == #"<details title="x"><a aria-disabled="true">x</a></details>"#)
    }

    @Test(
        "a partial, parent or block inside a URL, a script, a style or a tag, or a template that ends inside one, is refused",
        arguments: [
            (#"<a href="{{>p}}">"#, "card:1:10: a partial (\"p\") stands inside a tag, a URL, a script or a style"),
            ("<script>{{>p}}</script>", "card:1:9: a partial (\"p\") stands inside"),
            (#"<div style="{{$s}}color:red{{/s}}">"#, "card:1:13: a block (\"s\") stands inside"),
            ("<a {{<p}}{{/p}}>", "card:1:4: a parent (\"p\") stands inside"),
            ("<a href=\"/x", "card:1:12: the template ends inside a tag, an attribute or a script"),
            ("<script>var a = 1;", "card:1:19: the template ends inside a tag, an attribute or a script"),
        ])
    func inclusionRefused(_ source: String, _ expected: String) {
        #expect(HTMLContextTests.refusal(source)?.hasPrefix(expected) == true, "\(HTMLContextTests.refusal(source) ?? "compiled")")
    }

    @Test("a partial or block in text or a plain quoted attribute escapes its values as there")
    func inclusionInPlainPlaces() throws {
        let library = try TemplateLibrary(templates: [
            "name": "{{n}}",
            "card": #"<p title="{{>name}}" class="reco {{$layout}}grid{{/layout}}">{{>name}}</p>"#,
        ])
        #expect(try library.render("card", .object(["n": "\"><script>"])) == #"<p title="&quot;&gt;&lt;script&gt;" class="reco grid">&quot;&gt;&lt;script&gt;</p>"#)
    }
}
