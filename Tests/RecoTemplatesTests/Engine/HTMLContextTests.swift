import RecoTemplates
import Testing

/// Every HTML context where a value could become code or a navigation: what is written, or the compile
/// error with the template's name, line and column.
@Suite("HTML contexts")
struct HTMLContextTests {
    /// The description of the error compiling `source` as template "card", or nil when it compiles.
    static func refusal(_ source: String) -> String? {
        do {
            _ = try Template(source, name: "card")
            return nil
        } catch {
            return error.description
        }
    }

    static func render(_ source: String, _ values: [String: TemplateValue]) throws -> String {
        try Template(source, name: "card").render(.object(values))
    }

    /// Values that try to become code or a navigation.
    static let hostile: [String] = HTMLSafetyTests.hostileURLs + [
        #""><script>alert(1)</script>"#, "'><img src=x onerror=alert(1)>", "</script><script>alert(1)</script>",
        "</style><script>alert(1)</script>", "expression(alert(1))", "url(javascript:alert(1))",
        #"\75 rl(javascript:alert(1))"#, "red;background:url(x)", "red}body{background:red", "/* x */",
        "0;url=javascript:alert(1)", "&lt;script&gt;alert(1)&lt;/script&gt;",
    ]

    // MARK: srcdoc

    @Test("a value in the text of a srcdoc document is escaped twice, so the inner document shows it as text")
    func srcdocText() throws {
        let html = try Self.render(#"<iframe srcdoc="<p>{{v}}</p><p title='{{v}}'>x</p>"></iframe>"#, ["v": #"<script>alert("1")</script>&lt;b&gt;'"#])
        let twice = "&amp;lt;script&amp;gt;alert(&amp;quot;1&amp;quot;)&amp;lt;/script&amp;gt;&amp;amp;lt;b&amp;amp;gt;&amp;#39;"
        #expect(html == #"<iframe srcdoc="<p>\#(twice)</p><p title='\#(twice)'>x</p>"></iframe>"#)
    }

    @Test("hostile values in srcdoc text never leave a tag or a reference the inner document would read", arguments: hostile)
    func srcdocHostile(_ value: String) throws {
        let html = try Self.render(#"<iframe srcdoc="<p>{{v}}</p>"></iframe>"#, ["v": .string(value)])
        let inner = html.dropFirst(#"<iframe srcdoc="<p>"#.count).dropLast(#"</p>"></iframe>"#.count)
        #expect(!inner.contains("<") && !inner.contains(">") && !inner.contains("\""))
        #expect(!inner.replacingOccurrences(of: "&amp;", with: "").contains("&"), "one decoding leaves no reference but &amp;…: \(inner)")
    }

    @Test(
        "a value elsewhere in srcdoc is refused with its place",
        arguments: [
            (#"<iframe srcdoc="<a href='{{v}}'>x</a>"></iframe>"#, "card:1:26: a value in srcdoc may stand only in the text"),
            (#"<iframe srcdoc="<script>{{v}}</script>"></iframe>"#, "card:1:25: a value in srcdoc may stand only in the text"),
            ("<iframe\n  srcdoc={{v}}></iframe>", "card:2:10: a value in srcdoc needs the srcdoc in quotes"),
            (#"<iframe srcdoc="&lt;p&gt;{{v}}"></iframe>"#, "card:1:26: a value in srcdoc needs the srcdoc in quotes and written without character references"),
            (#"<iframe srcdoc="<a href='{{v}}:x'>x</a>"></iframe>"#, "card:1:26: a value in srcdoc may stand only in the text"),
        ])
    func srcdocRefused(_ source: String, _ expected: String) {
        #expect(Self.refusal(source)?.hasPrefix(expected) == true, "\(Self.refusal(source) ?? "compiled")")
    }

    // MARK: CSS

    @Test("plain values are written into style attributes and <style>")
    func cssPlain() throws {
        let source = #"<div style="color:{{c}};width:{{w}}">x</div><div style={{b}}></div><style>.reco-{{id}}{color:{{c}}}</style>"#
        let html = try Self.render(source, ["c": "#0b57d0", "w": "12.5%", "b": "1px solid red", "id": "lamp-42"])
        #expect(html == #"<div style="color:#0b57d0;width:12.5%">x</div><div style=1px&#32;solid&#32;red></div><style>.reco-lamp-42{color:#0b57d0}</style>"#)
        #expect(try Self.render(#"<p style="font-family:{{f}}">"#, ["f": "Çay Sans, serif"]) == #"<p style="font-family:Çay Sans, serif">"#)
    }

    @Test("any other value is left out of CSS", arguments: hostile)
    func cssHostile(_ value: String) throws {
        let html = try Self.render(#"<div style="background:url({{v}});color:{{v}}">x</div><style>.a{color:{{v}}}</style>"#, ["v": .string(value)])
        #expect(html == #"<div style="background:url();color:">x</div><style>.a{color:}</style>"#)
        #expect(!CSSValue.isPlain(value))
    }

    // MARK: meta http-equiv

    @Test(
        "a value in the content of <meta http-equiv>, or in http-equiv itself, is refused with its place",
        arguments: [
            (#"<meta http-equiv="refresh" content="0;url={{u}}">"#, "card:1:43: a value in the content of <meta http-equiv> could refresh"),
            (#"<meta content="{{u}}" http-equiv="Refresh">"#, "card:1:16: a value in the content of <meta http-equiv> could refresh"),
            (#"<meta http-equiv="{{h}}" content="5">"#, "card:1:19: a value in http-equiv could make the page refresh"),
            (#"<meta {{#r}}http-equiv="refresh"{{/r}} content="{{u}}">"#, "card:1:49: a value in the content of <meta http-equiv>"),
        ])
    func metaRefused(_ source: String, _ expected: String) {
        #expect(Self.refusal(source)?.hasPrefix(expected) == true, "\(Self.refusal(source) ?? "compiled")")
    }

    @Test("a value in any other <meta content> is plain text")
    func metaPlain() throws {
        let html = try Self.render(#"<meta name="description" content="{{d}}">"#, ["d": #"0;url=javascript:alert(1) "x""#])
        #expect(html == #"<meta name="description" content="0;url=javascript:alert(1) &quot;x&quot;">"#)
    }

    // MARK: SVG animation

    @Test(
        "a value an SVG animation could set a link, a handler or a style to is refused with its place",
        arguments: [
            (#"<svg><a><animate attributeName="href" values="{{v}}"/></a></svg>"#, "card:1:47: a value animating href"),
            (#"<svg><a><set attributeName="xlink:href" to="{{v}}"/></a></svg>"#, "card:1:45: a value animating xlink:href"),
            (#"<svg><a><set to="{{v}}" attributeName="HREF"/></a></svg>"#, "card:1:18: a value animating href"),
            (#"<svg><a><animate attributeName="href" from="{{v}}" by="x"/></a></svg>"#, "card:1:45: a value animating href"),
            (#"<svg><rect><set attributeName="onclick" to="{{v}}"/></rect></svg>"#, "card:1:45: a value animating onclick"),
            (#"<svg><rect><set attributeName="style" to="{{v}}"/></rect></svg>"#, "card:1:43: a value animating style"),
            (#"<svg><a><animate attributeName="{{a}}" values="x"/></a></svg>"#, "card:1:33: a value in an animation's attributeName"),
            (#"<svg><a><set to="{{v}}"/></a></svg>"#, "card:1:18: a value in an animation without a written attributeName"),
            (#"<svg><a><set {{#a}}attributeName="href"{{/a}} to="{{v}}"/></a></svg>"#, "card:1:51: a value in an animation whose attributeName differs"),
        ])
    func animationRefused(_ source: String, _ expected: String) {
        #expect(Self.refusal(source)?.hasPrefix(expected) == true, "\(Self.refusal(source) ?? "compiled")")
    }

    @Test("an animation of a plain attribute takes values as text")
    func animationPlain() throws {
        let source = #"<svg><animate attributeName="opacity" values="{{v}}"/><animateMotion path="M0 0" values="{{v}}"/></svg>"#
        #expect(try Self.render(source, ["v": "0;1\""]) == #"<svg><animate attributeName="opacity" values="0;1&quot;"/><animateMotion path="M0 0" values="0;1&quot;"/></svg>"#)
    }

    /// Found by type-checking for macOS (a warning there): `values`, `to` and `from` were taken for an
    /// animation's values on any tag, so a template with `<td from="{{v}}">` was refused.
    @Test("values, to, from and by outside an SVG animation are plain attributes")
    func animationNamesElsewhere() throws {
        let source = #"<td values="{{v}}" to="{{v}}" from="{{v}}" by="{{v}}">x</td>"#
        #expect(try Self.render(source, ["v": "a\"b"]) == #"<td values="a&quot;b" to="a&quot;b" from="a&quot;b" by="a&quot;b">x</td>"#)
    }

    // MARK: code-loading attributes, names, handlers

    @Test(
        "a value that could load code, rebase links, name a tag or attribute, or fill an unquoted handler is refused",
        arguments: [
            (#"<script src="{{u}}"></script>"#, "card:1:14: a value in <script src> could load code from anywhere"),
            (#"<base href="{{u}}">"#, "card:1:13: a value in <base href> could load code from anywhere"),
            (#"<object data="{{u}}"></object>"#, "card:1:15: a value in <object data> could load code"),
            (#"<embed src="{{u}}">"#, "card:1:13: a value in <embed src> could load code"),
            (#"<param name="movie" value="{{u}}">"#, "card:1:28: a value in <param value> could load code"),
            (#"<svg xml:base="{{u}}"></svg>"#, "card:1:16: a value in xml:base would change where every link goes"),
            ("<{{tag}}>", "card:1:2: a value cannot be (part of) a tag's name"),
            (#"<a {{name}}="x">"#, "card:1:4: a value cannot be (part of) an attribute's name"),
            (#"<a on{{e}}="x">"#, "card:1:6: a value cannot be (part of) an attribute's name"),
            ("<button onclick={{v}}>x</button>", "card:1:17: a value in an event handler must stand inside quotes"),
        ])
    func otherRefusals(_ source: String, _ expected: String) {
        #expect(Self.refusal(source)?.hasPrefix(expected) == true, "\(Self.refusal(source) ?? "compiled")")
    }

    @Test(
        "a value inside a URL the template writes with a scheme other than http(s), mailto:, tel: or sms: is refused",
        arguments: [
            (#"<a href="javascript:track('{{id}}')">x</a>"#, "card:1:28: a value inside a javascript: URL"),
            (#"<a href="javascript&colon;{{x}}">x</a>"#, "card:1:27: a value inside a javascript: URL"),
            (#"<a href=" java&#x73;cript:go({{x}})">x</a>"#, "card:1:30: a value inside a javascript: URL"),
            (#"<iframe src="data:text/html,{{x}}"></iframe>"#, "card:1:29: a value inside a data: URL"),
            (#"<a href="vbscript:{{x}}">x</a>"#, "card:1:19: a value inside a vbscript: URL"),
            (#"<svg><script href="{{u}}"></script></svg>"#, "card:1:20: a value in <script href> could load code"),
        ])
    func schemeWrittenInTemplate(_ source: String, _ expected: String) {
        #expect(Self.refusal(source)?.hasPrefix(expected) == true, "\(Self.refusal(source) ?? "compiled")")
    }

    @Test("a value after a written http(s), mailto: or tel: scheme is escaped text")
    func valueAfterWebScheme() throws {
        let source = #"<a href="mailto:{{e}}">m</a><a href="https://{{host}}/p?q={{q}}">h</a><a href="tel:{{t}}">t</a>"#
        let html = try Self.render(source, ["e": "a@b.example?subject=<x>", "host": "shop.example", "q": "javascript:x", "t": "+90 212"])
        #expect(html == #"<a href="mailto:a@b.example?subject=&lt;x&gt;">m</a><a href="https://shop.example/p?q=javascript:x">h</a><a href="tel:+90 212">t</a>"#)
    }

    @Test("hostile URLs in every URL attribute become about:invalid", arguments: HTMLSafetyTests.hostileURLs)
    func urlAttributes(_ url: String) throws {
        let source = #"<form action="{{u}}"><button formaction="{{u}}">b</button></form><svg><a xlink:href="{{u}}"></a></svg><table background="{{u}}"></table><a ping="{{u}}"></a><q cite="{{u}}"></q><iframe src="{{u}}"></iframe>"#
        let html = try Self.render(source, ["u": .string(url)])
        #expect(html == source.replacingOccurrences(of: "{{u}}", with: "about:invalid"))
    }

    @Test("raw values are the author's choice and are never refused")
    func rawNeverRefused() throws {
        #expect(try Self.render("<a {{{attrs}}} style=\"{{{css}}}\">x</a>", ["attrs": "href=/p", "css": "color:red"]) == #"<a href=/p style="color:red">x</a>"#)
    }
}
