import Foundation
import Testing
import RecoTemplates

/// A user changes one block of a built-in template through inheritance, or a whole template from a folder.
@Suite("Template overrides")
struct TemplateOverrideTests {
    @Test func overridingOneBlockKeepsTheRest() throws {
        let library = try TemplateLibrary(templates: [
            "my-carousel": "{{<carousel}}{{$item}}<li data-reco-product-id=\"{{productId}}\">{{position}}: {{displayName}}</li>{{/item}}{{/carousel}}",
        ], fallback: .builtIn)
        let html = try WidgetRenderer(library: library).render(try SampleWidgets.shoes(), template: "my-carousel")
        #expect(html.contains("<li data-reco-product-id=\"p1\">1: Trail Runner</li>"))
        #expect(html.contains("<li data-reco-product-id=\"3\">3: Gift Card</li>"))
        #expect(!html.contains("class=\"reco-item\""), "the default item is replaced")
        #expect(html.contains("class=\"reco reco-carousel\""), "the block around it is kept")
        #expect(html.contains("<h2 class=\"reco-title\" id=\"reco-scn_1-title\">Picked for you</h2>"))
        #expect(html.contains("data-reco-interaction-id=\"act_1\""))
    }

    @Test func overridingThePriceBlockKeepsTheItem() throws {
        let library = try TemplateLibrary(templates: [
            "sale-grid": "{{<grid}}{{$price}}<b class=\"now\">{{displayPrice}}</b>{{/price}}{{/grid}}",
        ], fallback: .builtIn)
        let html = try WidgetRenderer(library: library).render(try SampleWidgets.shoes(), template: "sale-grid")
        #expect(html.contains("<b class=\"now\">600,00 TL</b>"))
        #expect(!html.contains("<del class=\"reco-old-price\""))
        #expect(WidgetRendererTests.attribute("data-reco-position", in: html) == ["1", "2", "3"])
    }

    @Test func aFolderOverridesAWholeTemplateAndFallsBackForTheOthers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<ol data-reco-instance-id=\"{{instanceId}}\">{{#products}}<li>{{displayName}}</li>{{/products}}</ol>\n".utf8)
            .write(to: folder.appendingPathComponent("carousel.mustache"))
        try Data("{{<list}}{{$name}}<em>{{displayName}}</em>{{/name}}{{/list}}\n".utf8)
            .write(to: folder.appendingPathComponent("fancy-list.mustache"))
        let renderer = WidgetRenderer(library: try TemplateLibrary(directory: folder, fallback: .builtIn))
        let widget = try SampleWidgets.shoes()
        #expect(try renderer.render(widget) == "<ol data-reco-instance-id=\"scn_1\"><li>Trail Runner</li><li>Court Classic</li><li>Gift Card</li></ol>\n")
        #expect(try renderer.render(widget, template: "grid") == WidgetRenderer().render(widget, template: "grid"))
        let fancy = try renderer.render(widget, template: "fancy-list")
        #expect(fancy.contains("<em>Court Classic</em>") && fancy.contains("class=\"reco reco-list\""))
    }

    @Test func theStyleBlockCanBeEmptiedForASiteWithItsOwnCSS() throws {
        let library = try TemplateLibrary(templates: ["bare": "{{<grid}}{{$style}}{{/style}}{{/grid}}"], fallback: .builtIn)
        let html = try WidgetRenderer(library: library).render(try SampleWidgets.shoes(), template: "bare")
        #expect(!html.contains("<style>"))
        #expect(html.contains("class=\"reco reco-grid\""))
    }
}
