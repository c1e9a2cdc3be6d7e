import Foundation
import RecoTemplates
import Testing

/// Hostile values rendered through a template for every HTML context the engine accepts, loaded in headless
/// Chromium: no script may run, no URL may resolve to a scheme other than http(s), file or about, and the
/// page may not navigate away. A control page with the same values written raw proves the check can fail.
@Suite("HTML escaping in a real browser", .enabled(if: HeadlessChromium.installed != nil, HeadlessChromium.missingReason))
struct BrowserEscapingTests {
    /// One template per context; each value tries to call `top.pwn(N)`.
    static let contexts: [(name: String, template: String)] = [
        ("text", "<p>{{v}}</p>"),
        ("quoted attributes", #"<p title="{{v}}" class='{{v}}' data-x="a {{v}} b">x</p>"#),
        ("unquoted attribute", "<p title={{v}} lang=en>x</p>"),
        (
            "URL attributes",
            #"<a href="{{v}}">a</a><a href={{v}}>b</a><img src="{{v}}" alt=""><img srcset="{{v}} 2x" alt=""><iframe src="{{v}}"></iframe>"#
                + #"<form action="{{v}}"><button formaction="{{v}}">f</button></form><video poster="{{v}}"></video><a ping="{{v}}" href="/p">p</a>"#
                + #"<table background="{{v}}"><tr><td>t</td></tr></table><blockquote cite="{{v}}">q</blockquote>"#
        ),
        ("URL after a static prefix and split values", #"<a href="/p/{{v}}">a</a><a href="{{v}}{{v}}">b</a><a href="java{{v}}">c</a>"#),
        ("SVG links", #"<svg width="10" height="10"><a xlink:href="{{v}}"><text y="5">a</text></a><a href="{{v}}"><text y="9">b</text></a></svg>"#),
        ("script", #"<script>var a = "{{v}}"; var b = '{{v}}'; var c = [{{v}}];</script>"#),
        ("event handler", #"<img src="/reco-missing.png" alt="" onerror="var a = '{{v}}'; var b = &quot;{{v}}&quot;">"#),
        ("style attribute", #"<div style="color:{{v}};background:url({{v}});width:{{v}}">s</div><div style={{v}}>t</div>"#),
        ("style element", "<style>.reco-x{color:{{v}};background-image:url({{v}})} .reco-{{v}}{color:red}</style>"),
        (
            // Text a browser keeps inside the script or style: an end tag without whitespace, '/' or '>' after
            // its name, and `</script>` inside `<!--<script>`, the double-escaped state.
            "script and style past what only looks like their end",
            #"<script>var z = "</scripts>"; var a = "{{v}}", b = "{{v}}";</script>"#
                + "<script><!--\n" + #"var s = "<script>", t = "</script>"; var c = "{{v}}", d = "{{v}}";"# + "\n--></script>"
                + #"<style>.reco-y{content:"</styles>"} .reco-x{color:{{v}}}</style>"#
        ),
        ("srcdoc", #"<iframe srcdoc="<p>{{v}}</p><p title='{{v}}'>x</p>"></iframe>"#),
        ("meta content without http-equiv", #"<meta name="description" content="{{v}}"><meta property="og:url" content="{{v}}">"#),
        (
            "SVG animation of a plain attribute",
            #"<svg width="10" height="10"><a href="/p"><animate attributeName="opacity" values="{{v}}" dur="1s"/><set attributeName="width" to="{{v}}"/><text y="5">a</text></a></svg>"#
        ),
        ("comment, textarea and title", "<!-- {{v}} --><textarea>{{v}}</textarea><svg><title>{{v}}</title></svg>"),
        ("sections inside a tag", #"<details{{#v}} open{{/v}} title="{{v}}"><summary>{{v}}</summary></details><a {{#v}}href="{{v}}"{{/v}}>x</a>"#),
    ]

    /// Values that would call `top.pwn(N)` if written unescaped into some context.
    static let payloads: [String] = [
        "javascript:top.pwn(N)",
        "JaVaScRiPt:top.pwn(N)",
        " \tjava\nscript:top.pwn(N)",
        "jav&#x61;script:top.pwn(N)",
        "&#106;avascript&colon;top.pwn(N)",
        "\u{1}javascript:top.pwn(N)",
        "java\u{0}script:top.pwn(N)",
        "data:text/html,<script>top.pwn(N)</script>",
        "vbscript:top.pwn(N)",
        #""><script>top.pwn(N)</script>"#,
        "'><img src=x onerror=top.pwn(N)>",
        "</script><script>top.pwn(N)</script>",
        "</style><img src=x onerror=top.pwn(N)>",
        "</textarea></title><img src=x onerror=top.pwn(N)>",
        "--><img src=x onerror=top.pwn(N)>",
        "');top.pwn(N);//",
        ",x=top.pwn(N)//\\",
        #"");top.pwn(N);//"#,
        "top.pwn(N)",
        "expression(top.pwn(N))",
        "url(javascript:top.pwn(N))",
        #"\75 rl(javascript:top.pwn(N))"#,
        "red;background:url(javascript:top.pwn(N))",
        "0;url=javascript:top.pwn(N)",
        "0;javascript:top.pwn(N)",
        "&lt;img src=x onerror=top.pwn(N)&gt;",
        "&amp;lt;img src=x onerror=top.pwn(N)&amp;gt;",
        "x onerror=top.pwn(N)",
        "/safe/path?q=N",
    ]

    /// Renders every payload through every context, each payload numbered so a call to `pwn` says which.
    static func fragments(raw: Bool) throws -> [String] {
        var fragments: [String] = []
        for (contextIndex, context) in contexts.enumerated() {
            let source = raw ? context.template.replacingOccurrences(of: "{{v}}", with: "{{{v}}}") : context.template
            let template = try Template(source, name: context.name)
            for (payloadIndex, payload) in payloads.enumerated() {
                let number = String(contextIndex * 100 + payloadIndex)
                fragments.append(try template.render(.object(["v": .string(payload.replacingOccurrences(of: "N", with: number))])))
            }
        }
        return fragments
    }

    /// Which context and payload a `pwn` number stands for.
    static func explain(_ number: String) -> String {
        guard let value = Int(number), value / 100 < contexts.count, value % 100 < payloads.count else { return number }
        return "\(number): \(contexts[value / 100].name) with \(payloads[value % 100].debugDescription)"
    }

    static func load(_ fragments: [String], as name: String) throws -> BrowserCheckPage.Verdict {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reco-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("\(name).html")
        try BrowserCheckPage.html(fragments).write(to: page, atomically: true, encoding: .utf8)
        let chromium = try #require(HeadlessChromium.installed)
        return BrowserCheckPage.verdict(from: try chromium.dumpDOM(of: page))
    }

    @Test("hostile values in every accepted context run no script, make no unsafe URL and do not navigate")
    func hostileValuesStayInert() throws {
        let verdict = try Self.load(try Self.fragments(raw: false), as: "escaped")
        #expect(verdict.stayed, "the page navigated away or the checker did not run")
        #expect(verdict.pwned.isEmpty, "script ran: \(verdict.pwned.map(Self.explain))")
        #expect(verdict.findings.isEmpty, "unsafe URLs: \(verdict.findings)")
    }

    @Test("control: the same values written raw do run script and make unsafe URLs, so the check can fail")
    func rawValuesAreCaught() throws {
        let verdict = try Self.load(try Self.fragments(raw: true), as: "raw")
        #expect(!verdict.pwned.isEmpty)
        #expect(verdict.pwned.contains { Int($0).map { $0 / 100 == 10 } == true }, "the srcdoc context (10xx) ran no script when raw: \(verdict.pwned)")
        #expect(verdict.findings.contains { $0.contains("javascript:") })
    }

    @Test("control: where the engine refuses a template, values escaped only as attribute text do run script or navigate")
    func refusedContextsAreDangerous() throws {
        var fragments: [String] = []
        for (index, payload) in Self.payloads.enumerated() {
            let value = HTMLEscaping.escape(payload.replacingOccurrences(of: "N", with: String(9000 + index)))
            fragments.append(#"<iframe srcdoc="<p>\#(value)</p>"></iframe>"#)
            fragments.append(#"<svg width="10" height="10"><a href="/p"><set attributeName="href" to="\#(value)"/><text y="5">x</text></a></svg>"#)
        }
        let verdict = try Self.load(fragments, as: "refused")
        #expect(verdict.pwned.contains("9009"), "srcdoc with a text-escaped <script> ran no script: \(verdict.pwned)")
        #expect(verdict.findings.contains { $0.contains("animated href javascript:") },
                "\(verdict.findings); the checker's verdict \(verdict.stayed ? "was" : "was not") on the page")
        // Chromium refuses a refresh to javascript:, but a refresh to any other address from the data moves the
        // visitor away (to a phishing page, say): the page no longer holds the checker's verdict.
        let refresh = try Self.load([#"<meta http-equiv="refresh" content="0;url=\#(HTMLEscaping.escape("about:blank#elsewhere"))">"#], as: "refresh")
        #expect(!refresh.stayed, "a refresh to another address did not navigate")
    }
}
