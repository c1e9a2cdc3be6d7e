import RecoTemplates
import Testing

/// Where a `<script>`, `<style>`, `<textarea>` or `<title>` ends, read as the HTML tokenizer reads it: only
/// at the element's own end tag followed by whitespace, `/` or `>`, and for a script not inside
/// `<!--<script>` (the double-escaped state). A value after text that only looks like the end is written
/// for the script or the style it stands in, never as HTML text inside live code.
@Suite("Script data states")
struct ScriptDataStatesTests {
    /// The issue's values: a backslash that eats the closing quote, and code after it.
    static let values: [String: TemplateValue] = ["name": "\\", "brand": ";alert(1)//"]
    /// `brand` written for a script (every character but letters, digits and a few escaped).
    static let inScript = #"\u003balert\u00281\u0029\u002f\u002f"#

    static func render(_ source: String, _ values: [String: TemplateValue] = values) throws -> String {
        try Template(source, name: "card").render(.object(values))
    }

    /// Templates where the script goes on past text that only looks like its end.
    static let stillScript: [String] = [
        #"<script>var x = "</scripts>"; var a = "{{name}}", b = "{{brand}}";</script>"#,
        #"<script>var x = "</script-x>"; var b = "{{brand}}";</script>"#,
        #"<script>var x = "</scriptx"; var b = "{{brand}}";</script>"#,
        #"<script>var x = "</scrip>"; var b = "{{brand}}";</script>"#,
        #"<script>var x = "</"; var b = "{{brand}}";</script>"#,
        // Double escaped: `</script>` inside `<!--<script>` goes back to the escaped state.
        "<script><!--\nvar s = \"<script>\", t = \"</script>\"; var a = \"{{name}}\", b = \"{{brand}}\";\n--></script>",
        "<SCRIPT><!--<Script/></SCRIPT> var b = \"{{brand}}\";--></script>",
        "<script><!--<script\t></script > <!-- x --> var b = \"{{brand}}\";--></script>",
        // Escaped, then double escaped, then out of both and into script data again, still in the script.
        "<script><!--<script></script>--> var b = \"{{brand}}\";</script>",
    ]

    @Test("a script goes on past what only looks like its end", arguments: stillScript)
    func scriptGoesOn(_ source: String) throws {
        let html = try Self.render(source)
        #expect(html.contains(Self.inScript), "\(html)")
        #expect(!html.contains(";alert(1)//"), "\(html)")
    }

    /// Templates where the script has ended before `brand`: it is HTML text there.
    static let ended: [String] = [
        #"<script>var x = 1;</script>{{brand}}"#,
        #"<script>var x = 1;</script >{{brand}}"#,
        "<script>var x = 1;</script\n>{{brand}}",
        #"<script>var x = 1;</script/>{{brand}}"#,
        #"<script>var x = 1;</SCRIPT>{{brand}}"#,
        #"<script><!-- var x = 1; --></script>{{brand}}"#,
        // `<scripty>` does not start the double-escaped state.
        #"<script><!--<scripty></script>{{brand}}"#,
        // Out of the double-escaped state by `</script>`, then the end.
        #"<script><!--<script></script></script>{{brand}}"#,
        // `-->` leaves the double-escaped state for script data.
        #"<script><!--<script>--></script>{{brand}}"#,
        #"<style>.a{}</style>{{brand}}"#,
        #"<style>.a{}</style >{{brand}}"#,
    ]

    @Test("after the end tag a value is HTML text", arguments: ended)
    func scriptEnded(_ source: String) throws {
        let html = try Self.render(source)
        #expect(html.hasSuffix(";alert(1)//"), "\(html)")
    }

    @Test("a style goes on past </styles>, and a textarea past </textareas>")
    func rawTextGoesOn() throws {
        // In CSS only a plain value is written: one with ';' or '}' is left out.
        let style = try Self.render("<style>.a{content:\"</styles>\"} .b{color:{{brand}}}</style><p>{{brand}}</p>")
        #expect(style == "<style>.a{content:\"</styles>\"} .b{color:}</style><p>;alert(1)//</p>")
        let plain = try Self.render("<style></style-x> .b{color:{{c}}}</style>", ["c": "red"])
        #expect(plain == "<style></style-x> .b{color:red}</style>")
        let textarea = try Self.render("<textarea></textareas><b>{{brand}}</b></textarea>", ["brand": "<i>"])
        #expect(textarea == "<textarea></textareas><b>&lt;i&gt;</b></textarea>")
    }

    /// A value where its characters could finish a tag or a comment's start, and so move the element's end.
    @Test("a value inside what may be a tag's or a comment's start in a script or style is refused", arguments: [
        "<script></scr{{x}}>", "<script></script{{x}}", "<script><{{x}}", "<script><!{{x}}", "<script><!-{{x}}",
        "<script><!--<scr{{x}}>", "<script><!--<script{{x}}", "<script><!--<script></{{x}}", "<style></{{x}}",
        "<textarea></textarea{{x}}",
    ])
    func valueInsideATagStartIsRefused(_ source: String) {
        #expect(HTMLContextTests.refusal(source)?.contains("a value cannot stand inside what may be a tag") == true, "\(source)")
    }

    @Test("a raw value is the author's choice there")
    func rawValueIsTaken() throws {
        #expect(try Self.render("<script></scr{{{x}}}></script>", ["x": "ipt"]) == "<script></script></script>")
    }
}
