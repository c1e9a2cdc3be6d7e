import RecoKit
import RecoKitTesting
import RecoTemplates
import RecoVendors
import Testing

/// A render stops at its `RenderLimits` with the place where it stopped, however the template multiplies
/// its work: sections nested over the same list, partials that include the next one twice, many names
/// looked up through deep scopes, large values.
@Suite("Render limits")
struct RenderLimitsTests {
    private static let three: TemplateValue = .object(["products": .list([1, 2, 3])])

    /// Twenty sections over the same list of three rendered about 3²⁰ times (a name missing from an element
    /// is looked up again in the scopes around it): 18 s in the fuzz build for a 500-byte template.
    @Test("sections nested over the same list stop at the default limit, with the section's place")
    func nestedSectionsOverOneList() throws {
        let source = "<ul>\n" + String(repeating: "{{#products}}", count: 40) + "<li>{{.}}</li>" + String(repeating: "{{/products}}", count: 40)
        let template = try Template(source, name: "grid")
        let failure = #expect(throws: TemplateError.self) { try template.render(Self.three) }
        #expect(failure?.kind == .tooLarge)
        #expect(failure?.line == 2)
        // The section whose pass went over the limit: one of the 40, each 13 characters long.
        let column = try #require(failure?.column)
        #expect((column - 1) % 13 == 0 && (1...(1 + 13 * 39)).contains(column), "column \(column)")
        #expect(failure?.message == "the render takes more than 10000000 steps here, expected at most RenderLimits.maximumSteps (sections nested over the same list repeat their content exponentially)")
        // Nested a little, the same kind of template renders.
        let small = try Template(String(repeating: "{{#products}}", count: 3) + "{{.}}" + String(repeating: "{{/products}}", count: 3))
        #expect(try small.render(Self.three).count == 27)
    }

    /// Counting only the times content was rendered let this one run for minutes: a million passes, each
    /// looking 500 names up through 60 scopes.
    @Test("many names looked up deep inside nested sections count as the steps they take")
    func manyNamesDeepInside() throws {
        let names = (0..<500).map { "{{n\($0)}}" }.joined()
        let source = String(repeating: "{{#products}}", count: 60) + names + String(repeating: "{{/products}}", count: 60)
        let failure = #expect(throws: TemplateError.self) { try Template(source, name: "wide").render(Self.three) }
        #expect(failure?.kind == .tooLarge)
        #expect(failure?.templateName == "wide" && failure?.line == 1)
    }

    @Test("the step limit is exact, and a longer list takes proportionally more steps")
    func stepsAreCounted() throws {
        let library = try TemplateLibrary(templates: [
            "list": "{{#products}}[{{.}}]{{/products}}{{^missing}}!{{/missing}}{{#flag}}?{{/flag}}{{>item}}",
            "item": "i",
        ])
        func value(_ count: Int) -> TemplateValue {
            .object(["products": .list((0..<count).map { .number(JSONNumber($0)) }), "flag": true])
        }
        /// The fewest steps with which the list of `count` renders.
        func fewest(_ count: Int) throws -> Int {
            var limit = 0
            while (try? library.render("list", value(count), limits: RenderLimits(maximumSteps: limit))) == nil { limit += 1 }
            return limit
        }
        let steps = try fewest(3)
        #expect(try library.render("list", value(3), limits: RenderLimits(maximumSteps: steps)) == "[0][1][2]!?i")
        // One step fewer: stopped at the partial, the last content rendered (the 78th character).
        let failure = #expect(throws: TemplateError.self) {
            try library.render("list", value(3), limits: RenderLimits(maximumSteps: steps - 1))
        }
        #expect(failure?.kind == .tooLarge)
        #expect(failure?.description.hasPrefix("list:1:78: the render takes more than \(steps - 1) steps here") == true)
        let early = #expect(throws: TemplateError.self) {
            try library.render("list", value(3), limits: RenderLimits(maximumSteps: 1))
        }
        #expect(early?.line == 1 && early?.column == 1)
        // Each element costs the same: 3 more elements, 3 more element's worth of steps.
        let perElement = try fewest(6) - steps
        #expect(perElement > 0 && (perElement % 3) == 0)
        #expect(try fewest(12) - steps == 3 * perElement)
    }

    @Test("partials that each include the next one twice stop at the limit, with the partial's place")
    func doublingPartials() throws {
        var templates: [String: String] = ["p40": "x"]
        for level in 0..<40 { templates["p\(level)"] = "{{>p\(level + 1)}}\n{{>p\(level + 1)}}" }
        let library = try TemplateLibrary(templates: templates)
        let failure = #expect(throws: TemplateError.self) { try library.render("p0", .null) }
        #expect(failure?.kind == .tooLarge)
        #expect(failure?.templateName.hasPrefix("p") == true)
        #expect(failure?.column == 1 && [1, 2].contains(failure?.line))
        // Ten levels: 2¹⁰ x's from 2,046 inclusions, within the default.
        var ten: [String: String] = ["p10": "x"]
        for level in 0..<10 { ten["p\(level)"] = "{{>p\(level + 1)}}{{>p\(level + 1)}}" }
        #expect(try TemplateLibrary(templates: ten).render("p0", .null) == String(repeating: "x", count: 1024))
    }

    @Test("text past the output limit stops the render at the next pass, saying how much was written")
    func outputLimit() throws {
        let big = String(repeating: "a", count: 1_000)
        let template = try Template("<p>\n{{#items}}{{big}}{{/items}}", name: "page")
        let value: TemplateValue = .object(["big": .string(big), "items": .list(Array(repeating: true, count: 100))])
        #expect(try template.render(value, limits: RenderLimits(maximumOutputBytes: 100_004)).utf8.count == 100_004)
        let failure = #expect(throws: TemplateError.self) {
            try template.render(value, limits: RenderLimits(maximumOutputBytes: 10_000))
        }
        // 4 bytes of "<p>\n" and ten values make 10,004 bytes as the eleventh element's content starts.
        #expect(failure?.description == "page:2:1: the render has written 10004 bytes here, expected at most RenderLimits.maximumOutputBytes (10000)")
        #expect(failure?.kind == .tooLarge)
        // Non-ASCII text is counted in UTF-8 bytes too.
        let wide = try Template("{{#items}}{{big}}{{/items}}", name: "wide", escaping: .none)
        let value2: TemplateValue = .object(["big": .string(String(repeating: "ğ", count: 500)), "items": .list(Array(repeating: true, count: 100))])
        let wideFailure = #expect(throws: TemplateError.self) { try wide.render(value2, limits: RenderLimits(maximumOutputBytes: 5_000)) }
        #expect(wideFailure?.message.hasPrefix("the render has written 6000 bytes here") == true)
    }

    @Test("a widget renderer renders within its own limits")
    func widgetRendererLimits() throws {
        let widget = try VendorPayloads.decode(SamplePayloads.data(named: "segmentify-product-page")).widgets[0]
        var renderer = WidgetRenderer()
        #expect(try renderer.render(widget).contains("data-reco-product-id"))
        renderer.limits = RenderLimits(maximumSteps: 10)
        let failure = #expect(throws: RenderError.self) { try renderer.render(widget) }
        #expect(failure?.kind == .template)
        #expect(failure?.description.contains("RenderLimits.maximumSteps") == true)
    }

    @Test("the defaults are documented ones")
    func defaults() {
        #expect(RenderLimits.default == RenderLimits(maximumSteps: 10_000_000, maximumOutputBytes: 256 << 20))
    }
}
