import Foundation
import Testing
import RecoTemplates

/// Vendor data is untrusted: names, titles, ids and links that try to break out of their context.
@Suite("Hostile content")
struct HostileContentTests {
    static let hostileLinks = [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "\u{01}javascript:alert(1)",
        "javascript&#58;alert(1)",
        "&#106;avascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1)",
        "\" onmouseover=\"alert(1)",
    ]

    static func hostileWidget(link: String) throws -> Widget<RawProduct> {
        let product: JSONValue = [
            "productId": "p\"><script>alert(1)</script>",
            "name": "<img src=x onerror=alert(1)> & 'quotes' \"double\"",
            "url": .string(link),
            "image": .string(link),
            "brand": "</span><script>alert(2)</script>",
            "price": 10,
            "currency": "<b>",
        ]
        let raw = try RawProduct(product)
        return Widget(vendor: "evil\"vendor", instanceId: "id\" onclick=\"alert(3)", interactionId: "<x>",
                      title: "</h2><script>alert(4)</script>", rawProducts: [(raw, .root)])
    }

    /// The value of every href and src attribute.
    static func links(in html: String) -> [String] {
        WidgetRendererTests.attribute("href", in: html) + WidgetRendererTests.attribute("src", in: html)
    }

    @Test(arguments: hostileLinks)
    func noTemplateWritesAnUnsafeLinkOrRawMarkup(link: String) throws {
        let widget = try Self.hostileWidget(link: link)
        for template in ["carousel", "grid", "list", "email"] {
            let html = try WidgetRenderer().render(widget, template: template)
            #expect(!html.lowercased().contains("<script"), "\(template) wrote a script tag")
            #expect(!html.contains("<img src=x"), "\(template) wrote vendor markup")
            #expect(!html.contains("onclick=\"") && !html.contains("onmouseover=\""), "\(template) let an attribute escape")
            for value in Self.links(in: html) {
                let squeezed = value.lowercased().unicodeScalars.filter { $0.value > 0x20 }.map(String.init).joined()
                #expect(!squeezed.contains("javascript") && !squeezed.contains("data:") && !squeezed.contains("vbscript"),
                        "\(template) wrote the link \(value.debugDescription)")
            }
        }
    }

    @Test(arguments: hostileLinks)
    func theTextTemplateDropsUnsafeLinks(link: String) throws {
        let text = try WidgetRenderer().render(try Self.hostileWidget(link: link), template: "text")
        #expect(!text.lowercased().contains("javascript:") && !text.contains("data:") && !text.contains("vbscript:"))
        #expect(text.contains("<img src=x onerror=alert(1)>"), "plain text is not HTML-escaped")
    }

    @Test func escapesTextAndAttributeValues() throws {
        let html = try WidgetRenderer().render(try Self.hostileWidget(link: "https://shop.example.com/a"), template: "list")
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; &amp;"))
        #expect(html.contains("&lt;/h2&gt;&lt;script&gt;alert(4)&lt;/script&gt;"))
        #expect(html.contains("data-reco-product-id=\"p&quot;&gt;&lt;script&gt;"))
        #expect(html.contains("data-reco-instance-id=\"id&quot; onclick=&quot;alert(3)\""))
        #expect(WidgetRendererTests.attribute("href", in: html) == ["https://shop.example.com/a"])
    }

    @Test(arguments: [
        ("https://a.example/x", true), ("HTTP://a.example", true), ("//cdn.example/x.jpg", true), ("/p/1?x=a:b", true),
        ("shoes/1.html", true), ("#top", true), ("javascript:x", false), ("mailto:a@b", false), ("java\nscript:x", false),
        ("\u{7F}javascript:x", false), ("data:image/png;base64,AA", false),
    ])
    func safeLinkRule(link: String, allowed: Bool) {
        #expect(SafeLink.isAllowed(link) == allowed)
    }
}
