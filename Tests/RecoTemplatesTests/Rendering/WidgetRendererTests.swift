import Foundation
import Testing
import RecoTemplates

@Suite("Widget renderer")
struct WidgetRendererTests {
    /// The values of an attribute, in order of appearance.
    static func attribute(_ name: String, in html: String) -> [String] {
        var values: [String] = []
        var rest = html[...]
        let marker = " \(name)=\""
        while let start = rest.range(of: marker) {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            values.append(String(after[..<end]))
            rest = after[end...]
        }
        return values
    }

    @Test func productContextComputesValuesAndKeepsRawFields() throws {
        let widget = try SampleWidgets.shoes()
        let first = ProductContext(widget.items[0], in: widget)
        let last = ProductContext(widget.items[2], in: widget)
        func text(_ value: TemplateValue?) -> String? {
            switch value {
            case .string(let text): text
            case .number(let number): number.text
            case .bool(let flag): String(flag)
            default: nil
            }
        }
        #expect(text(first.value(forKey: "position")) == "1")
        #expect(text(first.value(forKey: "first")) == "true")
        #expect(text(first.value(forKey: "last")) == "false")
        #expect(text(last.value(forKey: "last")) == "true")
        #expect(text(first.value(forKey: "displayPrice")) == "600,00 TL")
        #expect(text(first.value(forKey: "displayOldPrice")) == "800,00 TL")
        #expect(text(first.value(forKey: "discountPercent")) == "25")
        #expect(text(first.value(forKey: "imageSource")) == "https://cdn.example.com/p1.jpg")
        #expect(text(first.value(forKey: "brand")) == "Asics")
        #expect(text(last.value(forKey: "productId")) == "3")
        #expect(text(last.value(forKey: "displayName")) == "Gift Card")
        #expect(text(last.value(forKey: "hasDiscount")) == "false")
        #expect(first.value(forKey: "noSuchField") == nil)
    }

    @Test func htmlBlocksCarryTrackingAttributesOnBlockAndEveryProduct() throws {
        let widget = try SampleWidgets.shoes()
        for template in ["carousel", "grid", "list", "email"] {
            let html = try WidgetRenderer().render(widget, template: template)
            #expect(Self.attribute("data-reco-vendor", in: html) == ["segmentify"], "\(template)")
            #expect(Self.attribute("data-reco-instance-id", in: html) == ["scn_1"], "\(template)")
            #expect(Self.attribute("data-reco-interaction-id", in: html) == ["act_1"], "\(template)")
            #expect(Self.attribute("data-reco-product-id", in: html) == ["p1", "p2", "3"], "\(template)")
            #expect(Self.attribute("data-reco-position", in: html) == ["1", "2", "3"], "\(template)")
        }
    }

    @Test func htmlBlocksShowPricesImagesAndLabelledRegions() throws {
        let html = try WidgetRenderer().render(try SampleWidgets.shoes(), template: "grid")
        #expect(html.contains("600,00 TL") && html.contains("800,00 TL") && html.contains("−25%"))
        #expect(html.contains("1.299,90 €"))
        #expect(Self.attribute("src", in: html) == ["https://cdn.example.com/p1.jpg", "https://cdn.example.com/p2.jpg"])
        #expect(Self.attribute("alt", in: html) == ["Trail Runner", "Court Classic"])
        #expect(Self.attribute("loading", in: html) == ["lazy", "lazy"])
        #expect(Self.attribute("aria-labelledby", in: html) == ["reco-scn_1-title"])
        #expect(Self.attribute("id", in: html) == ["reco-scn_1", "reco-scn_1-title"])
        #expect(html.contains("<ul class=\"reco-items\" role=\"list\">"))
        #expect(html.contains("class=\"reco reco-grid\""))
        #expect(html.contains("<style>"))
    }

    @Test func aBlockWithoutTitleIsStillLabelled() throws {
        let widget = try SampleWidgets.widget([#"{"productId":"p1","name":"A"}"#], title: " ")
        let html = try WidgetRenderer().render(widget)
        #expect(Self.attribute("aria-label", in: html) == ["Recommended products"])
        #expect(!html.contains("<h2"))
    }

    @Test func aPageWritesTheStylesheetOnce() throws {
        let one = try SampleWidgets.shoes()
        let two = try SampleWidgets.widget([#"{"productId":"x","name":"X"}"#], instanceId: "scn_2", interactionId: "act_2")
        let page = try WidgetRenderer().render([one, two], template: "list")
        #expect(page.components(separatedBy: "<style>").count == 2)
        #expect(Self.attribute("data-reco-instance-id", in: page) == ["scn_1", "scn_2"])
        #expect(page.contains("class=\"reco reco-list\""))
    }

    @Test func rendersWidgetsOfTheCallersOwnModelFromTheirRawFields() throws {
        struct Shoe: RecommendableProduct { let productId: String; let name: String }
        let reply = Recommendations(widgets: [try SampleWidgets.shoes()]).decoded(as: Shoe.self, fields: .only(["productId", "name", "price", "currency"]))
        let widget = try #require(reply.widgets.first)
        let text = try WidgetRenderer().render(widget, template: "text")
        #expect(text.contains("1. Trail Runner  600,00 TL\n"))
        #expect(!text.contains("https://shop.example.com/p1"), "the url was not selected, so it is not shown")
    }

    @Test func defaultCurrencyAppliesToProductsWithoutOne() throws {
        let widget = try SampleWidgets.widget([#"{"productId":"p","name":"Mat","price":32}"#], vendor: .reteno)
        #expect(try WidgetRenderer(defaultCurrency: "USD").render(widget, template: "text").contains("Mat  $32.00"))
        #expect(try WidgetRenderer().render(widget, template: "text").contains("Mat  32.00"))
    }

    @Test func anUnknownTemplateIsAnErrorListingTheNames() throws {
        let error = #expect(throws: RenderError.self) { try WidgetRenderer().render(try SampleWidgets.shoes(), template: "carusel") }
        #expect(error?.missingTemplate == "carusel")
        #expect(error?.description.contains("carousel, email, grid, list, text") == true)
    }
}

@Suite("Page of blocks")
struct PageOfBlocksTests {
    @Test func blocksWithTheSameInstanceIdGetDifferentHTMLIds() throws {
        let one = try SampleWidgets.widget([#"{"productId":"a","name":"A"}"#], instanceId: "r1v1")
        let page = try WidgetRenderer().render([one, one, one], template: "grid")
        #expect(WidgetRendererTests.attribute("id", in: page) == ["reco-r1v1", "reco-r1v1-title", "reco-r1v1-2", "reco-r1v1-2-title", "reco-r1v1-3", "reco-r1v1-3-title"])
        #expect(WidgetRendererTests.attribute("aria-labelledby", in: page) == ["reco-r1v1-title", "reco-r1v1-2-title", "reco-r1v1-3-title"])
    }
}
