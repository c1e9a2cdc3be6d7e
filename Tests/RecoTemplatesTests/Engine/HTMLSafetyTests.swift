import RecoTemplates
import Testing

@Suite("HTML safety")
struct HTMLSafetyTests {
    static let hostileURLs: [String] = [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "JAVASCRIPT:alert(document.cookie)",
        " javascript:alert(1)",
        "\u{01}\u{02}javascript:alert(1)",
        "\tjavascript:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "java\rscript:alert(1)",
        "jav&#x61;script:alert(1)",
        "jav&#97;script:alert(1)",
        "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)",
        "&#x6A;avascript&#x3A;alert(1)",
        "javascript&colon;alert(1)",
        "jav&Tab;ascript:alert(1)",
        "java\u{0}script:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "DaTa:image/svg+xml,<svg onload=alert(1)>",
        "vbscript:msgbox(1)",
        "VBScript:msgbox(1)",
        "\u{200B}javascript:alert(1)",
        "file:///etc/passwd",
    ]

    static let safeURLs: [String] = [
        "https://shop.example.com/p/1",
        "http://shop.example.com/p/1",
        "HTTPS://SHOP.EXAMPLE.COM/",
        "//cdn.segmentify.com/images/lamp.jpg",
        "/products/lamp-42",
        "products/lamp-42",
        "?page=2",
        "#reviews",
        "lamp.html?ref=reco:home",
    ]

    @Test("hostile URLs in href are replaced by a harmless one", arguments: hostileURLs)
    func hostileHref(_ url: String) throws {
        let template = try Template(#"<a class="reco" href="{{url}}">{{name}}</a>"#)
        let html = try template.render(.object(["url": .string(url), "name": "Lamp"]))
        #expect(html == #"<a class="reco" href="about:invalid">Lamp</a>"#)
        #expect(HTMLEscaping.safeURL(url) == nil)
    }

    @Test("hostile URLs in src, unquoted values and srcset are replaced", arguments: hostileURLs)
    func hostileSrc(_ url: String) throws {
        let template = try Template(#"<img src="{{u}}" alt=""><img src={{u}}><img srcset="{{u}} 2x"><video poster='{{u}}'></video>"#)
        let html = try template.render(.object(["u": .string(url)]))
        #expect(
            html == #"<img src="about:invalid" alt=""><img src=about:invalid><img srcset="about:invalid 2x"><video poster='about:invalid'></video>"#)
    }

    @Test("safe URLs are written, escaped", arguments: safeURLs)
    func safeHref(_ url: String) throws {
        let html = try Template(#"<a href="{{url}}">x</a>"#).render(.object(["url": .string(url)]))
        #expect(html == #"<a href="\#(HTMLEscaping.escape(url))">x</a>"#)
        #expect(HTMLEscaping.safeURL(url) == url)
    }

    @Test("a query string's ampersands are escaped in an href")
    func queryEscaped() throws {
        let html = try Template(#"<a href="{{url}}">"#).render(.object(["url": "https://x.example/?a=1&b=<2>"]))
        #expect(html == #"<a href="https://x.example/?a=1&amp;b=&lt;2&gt;">"#)
    }

    @Test("a value after a static path cannot change the scheme; split values cannot form one")
    func staticPrefixAndSplitValues() throws {
        let fixed = try Template(#"<a href="/p/{{id}}">"#).render(.object(["id": "javascript:alert(1)"]))
        #expect(fixed == #"<a href="/p/javascript:alert(1)">"#)
        let split = try Template(#"<a href="{{a}}{{b}}">"#).render(.object(["a": "java", "b": "script:alert(1)"]))
        #expect(split == #"<a href="java">"#)
        let prefixed = try Template(#"<a href="java{{b}}">"#).render(.object(["b": "script:alert(1)"]))
        #expect(prefixed == #"<a href="java">"#)
        let fine = try Template(#"<a href="{{a}}{{b}}">"#).render(.object(["a": "https://x.example", "b": "/p?q=1"]))
        #expect(fine == #"<a href="https://x.example/p?q=1">"#)
    }

    @Test("a static ':' that could complete a scheme begun by a value is refused when the template is compiled")
    func colonAfterValue() throws {
        let failure = #expect(throws: TemplateError.self) { try Template("<p>\n<a href=\"{{a}}:alert(1)\">", name: "card") }
        #expect(failure?.description.hasPrefix("card:2:15: a ':' after a value in a URL attribute could complete a scheme") == true)
        let fine = try Template(#"<a href="https://{{host}}:8080/p">{{a}}:{{b}}</a><a href="{{path}}/x:y">"#)
        #expect(try fine.render(.object(["host": "shop.example", "a": "x", "b": "y", "path": "/p"])) == #"<a href="https://shop.example:8080/p">x:y</a><a href="/p/x:y">"#)
    }

    @Test("hostile names are escaped in text and attributes, quotes included")
    func hostileNames() throws {
        let name = #"<script>alert("x")</script> & 'Tom's' lamp"#
        let template = try Template(#"<li title="{{name}}" data-name='{{name}}'><h3>{{name}}</h3></li>"#)
        let html = try template.render(.object(["name": .string(name)]))
        let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Tom&#39;s&#39; lamp"
        #expect(html == #"<li title="\#(escaped)" data-name='\#(escaped)'><h3>\#(escaped)</h3></li>"#)
        #expect(!html.contains("<script>"))
    }

    @Test("a value in an unquoted attribute cannot add attributes; one inside a tag is refused")
    func unquotedAttributes() throws {
        let html = try Template("<div class={{c}}>").render(.object(["c": "a onmouseover=alert(1) x=`y`"]))
        #expect(html == "<div class=a&#32;onmouseover&#61;alert(1)&#32;x&#61;&#96;y&#96;>")
        let failure = #expect(throws: TemplateError.self) { try Template("<div class=a {{extra}}>", name: "card") }
        #expect(failure?.description.hasPrefix("card:1:14: a value cannot be (part of) an attribute's name") == true)
    }

    @Test("the same text outside a tag is ordinary text, even after comments and script")
    func contextsReset() throws {
        let template = try Template(#"<!-- <a href=" --><p>{{u}}</p><script>var a = "<a href=";</script>{{u}}<a href={{u}}>"#)
        let html = try template.render(.object(["u": "javascript:x"]))
        #expect(html == #"<!-- <a href=" --><p>javascript:x</p><script>var a = "<a href=";</script>javascript:x<a href=about:invalid>"#)
    }

    @Test("values in scripts and event handlers are written as JavaScript escapes")
    func scripts() throws {
        let template = try Template(#"<script>var id = "{{id}}";</script><button onclick="track('{{id}}')">{{id}}</button>"#)
        let html = try template.render(.object(["id": "');alert(1);//"]))
        let escaped = #"\u0027\u0029\u003balert\u00281\u0029\u003b\u002f\u002f"#
        #expect(html == #"<script>var id = "\#(escaped)";</script><button onclick="track('\#(escaped)')">&#39;);alert(1);//</button>"#)
        let closing = try template.render(.object(["id": "</script><script>alert(1)</script>"]))
        #expect(!closing.contains("<script>alert"))
        #expect(closing.hasPrefix(#"<script>var id = "\u003c\u002fscript\u003e\u003cscript\u003ealert"#))
    }

    @Test("only triple mustaches and ampersand tags write raw text")
    func rawOutput() throws {
        let value = TemplateValue.object(["html": "<b>bold</b>"])
        #expect(try Template("{{{html}}}|{{& html}}|{{html}}").render(value) == "<b>bold</b>|<b>bold</b>|&lt;b&gt;bold&lt;/b&gt;")
    }

    @Test("plain-text templates write values as they are, even in what looks like an href")
    func plainText() throws {
        let template = try Template(#"{{name}} <a href="{{url}}">"#, escaping: .none)
        #expect(try template.render(.object(["name": "Tom's <Lamp>", "url": "javascript:x"])) == #"Tom's <Lamp> <a href="javascript:x">"#)
    }

    @Test("escaping helpers")
    func helpers() {
        #expect(HTMLEscaping.escape(#"a&b<c>d"e'f"#) == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(HTMLEscaping.escape("çay & simit — 15 ₺") == "çay &amp; simit — 15 ₺")
        #expect(HTMLEscaping.escape("plain") == "plain")
        var output = "x="
        HTMLEscaping.appendUnquoted("a b", to: &output)
        #expect(output == "x=a&#32;b")
    }
}
