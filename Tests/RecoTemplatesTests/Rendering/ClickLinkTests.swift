import Foundation
import Testing
import RecoTemplates

@Suite("Click links")
struct ClickLinkTests {
    @Test func everyTemplatePointsProductLinksAtTheClickURL() throws {
        let widget = try SampleWidgets.shoes()
        let targets = SeenTargets()
        var renderer = WidgetRenderer()
        renderer.clickLink = ClickLink { target in
            targets.append(target)
            return "/r/\(target.instanceId)-\(target.productId)-\(target.position)"
        }
        let html = try renderer.render(widget, template: "grid")
        let hrefs = WidgetRendererTests.attribute("href", in: html)
        #expect(hrefs == ["/r/\(widget.instanceId)-p1-1", "/r/\(widget.instanceId)-p2-2", "/r/\(widget.instanceId)-3-3"])
        let seen = targets.value
        #expect(seen.map(\.link) == ["https://shop.example.com/p1", "/p2", "https://shop.example.com/gift"])
        #expect(seen.allSatisfy { $0.interactionId == widget.interactionId && $0.vendor == widget.vendor })

        let text = try renderer.render(widget, template: "text")
        #expect(text.contains("/r/\(widget.instanceId)-p1-1"))
        #expect(!text.contains("https://shop.example.com/p1"))
    }

    @Test func productWithoutASafeLinkGetsNoClickURL() throws {
        let widget = try SampleWidgets.widget([
            #"{"productId":"x1","name":"Bad","url":"javascript:alert(1)"}"#,
            #"{"productId":"x2","name":"None"}"#,
        ])
        var renderer = WidgetRenderer()
        renderer.clickLink = ClickLink { _ in "/r/issued" }
        let html = try renderer.render(widget, template: "list")
        #expect(!html.contains("/r/issued"))
    }

    @Test func nilFromTheClickLinkKeepsTheProductsOwnLinkAndProductLinkIsAlwaysIt() throws {
        let widget = try SampleWidgets.shoes()
        let context = WidgetContext(widget, clickLink: ClickLink { $0.productId == "p1" ? "/r/one" : nil })
        guard case .list(let products)? = context.value(forKey: "products"),
              case .context(let first) = products[0], case .context(let second) = products[1] else {
            Issue.record("products is not a list of contexts")
            return
        }
        func text(_ value: TemplateValue?) -> String? {
            if case .string(let text)? = value { return text }
            return nil
        }
        #expect(text(first.value(forKey: "link")) == "/r/one")
        #expect(text(first.value(forKey: "productLink")) == "https://shop.example.com/p1")
        #expect(text(second.value(forKey: "link")) == "/p2")
    }

    @Test func withoutAClickLinkTheOutputIsUnchanged() throws {
        let widget = try SampleWidgets.shoes()
        let plain = try WidgetRenderer().render(widget)
        #expect(WidgetRendererTests.attribute("href", in: plain).first == "https://shop.example.com/p1")
    }
}

/// The click targets a ``ClickLink`` was asked about, in order.
final class SeenTargets: @unchecked Sendable {
    private let lock = NSLock()
    private var targets: [ClickTarget] = []
    var value: [ClickTarget] { lock.withLock { targets } }
    func append(_ target: ClickTarget) { lock.withLock { targets.append(target) } }
}
