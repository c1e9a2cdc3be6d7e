import Foundation
import RecoKit
import RecoKitTesting
import RecoTemplates
import RecoVendors
import Testing

/// Inputs the fuzz targets in `Fuzz/` reported, each run through the same calls as its target. The
/// inputs are in `FuzzRegressions/`, named after the target and the libFuzzer artifact.
@Suite struct FuzzRegressionTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

    private func input(_ name: String) throws -> Data { try Data(contentsOf: Self.folder.appendingPathComponent(name)) }

    /// FuzzDecodedModel, 22:12 UTC: reported as a timeout (13 s) inside the parser's error for a raw line
    /// break in a key. Run alone it is refused at once: the timeout was the shared machine starving the
    /// fuzzer (load 19 on 2 cores, the replay took 0.09 s of user time in 14 minutes), kept as a test so a
    /// real hang on this input would show.
    @Test func aLineBreakInsideAKeyIsAnErrorWithItsPlace() throws {
        let data = try input("decoded-model-timeout-a4d6eccb.json")
        #expect {
            _ = try JSONValue(parsing: data)
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.kind == .invalidJSON && error.message == "unescaped control character U+000A in a string"
                && error.path == .root && error.position?.line == 3
        }
        #expect(throws: PayloadError.self) { try VendorPayloads.decode(data) }
    }

    /// FuzzRender, 22:25 UTC: a 15 KB mutated Segmentify reply reported as a timeout (12 s) while the
    /// parser freed its member stack; like the one above, the replay is immediate: a raw line break in a
    /// product's string, refused with the product's path, line and column before anything is rendered.
    @Test func aMutatedSegmentifyReplyIsRefusedWithTheProductsPath() throws {
        let data = try input("render-timeout-ac34aec3.json")
        #expect {
            _ = try VendorPayloads.decode(data)
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.kind == .invalidJSON
                && error.description == #"invalid JSON: unescaped control character U+000A in a string at $.responses[1][1].params.recommendedProducts["ASICS|MONTHLY|ROCK"][0] (line 255, column 20)"#
        }
    }

    /// FuzzTemplate, 16:57 UTC (2026-11-23): a timeout (over 10 s) rendering a mutated email template,
    /// 4 KB compiled for text, whose sections nest `{{#products}}` and `{{#a}}` over the same lists again and again, so
    /// that its content repeated exponentially. Rendered with the target's data, it now stops at the
    /// default `RenderLimits` with the place of a section.
    @Test func sectionsNestedOverTheSameListsStopAtTheRenderLimits() throws {
        let source = String(decoding: try input("template-timeout-0c05250d.mustache"), as: UTF8.self)
        let evil = #"<script>alert(1)</script>"'` javascript:alert(1) {{x}} &amp; \u{0} \r\n"#
        let product: TemplateValue = .object([
            "name": .string(evil), "url": "javascript:alert(1)", "imageUrl": "data:text/html,<b>",
            "price": .number(JSONNumber(text: "-1e400")!), "position": 1, "a": .list([1, 2, .object(["a": "x"])]),
        ])
        let data: TemplateValue = .object([
            "title": .string(evil), "x": .string(evil), "a": product, "b": .bool(true), "c": .null, "d": .list([]),
            "products": .list([product, product, .object(["products": .list([product])])]),
            "n": .number(JSONNumber(text: "123456789012345678901234567890")!),
        ])
        // 4,127 bytes, an odd number: the target compiles it for text.
        let template = try Template(source, name: "self", escaping: .none)
        // As the target does: alone (its partials name no template), then as its own only partial.
        #expect(throws: TemplateError.self) { try template.render(data) }
        let library = try TemplateLibrary(compiled: [template], missingPartials: .renderEmpty)
        let failure = #expect(throws: TemplateError.self) { try template.render(data, partials: library) }
        #expect(failure?.kind == .tooLarge)
        #expect(failure?.templateName == "self" && failure?.line != nil && failure?.column != nil)
    }

    /// FuzzTemplate, 20:55 UTC (2026-11-23): a stack overflow (AddressSanitizer) rendering a mutated
    /// template of 10 KB, compiled for text, as its own only partial. Its blocks are overridden by content
    /// that shows the same blocks, so each showed itself again without end; blocks did not count as
    /// levels, and the step limit is reached only long after the stack is gone. A block is now a level:
    /// the render stops at the depth limit, with the block's place.
    @Test func aBlockShowingItselfStopsAtTheDepthLimit() throws {
        let source = String(decoding: try input("template-stack-overflow-4e92c9b7.mustache"), as: UTF8.self)
        let template = try Template(source, name: "self", escaping: .none)
        let data: TemplateValue = .object(["products": .list([.object(["name": "x"])]), "title": "t"])
        _ = try? template.render(data)
        let library = try TemplateLibrary(compiled: [template], missingPartials: .renderEmpty)
        let failure = #expect(throws: TemplateError.self) { try template.render(data, partials: library) }
        #expect(failure?.kind == .tooDeep)
        #expect(failure?.templateName == "self" && failure?.line != nil && failure?.column != nil)
    }

    /// The smallest form: a parent whose override of a block shows that block.
    @Test func anOverrideShowingItsOwnBlockStopsAtTheDepthLimit() throws {
        let parent = try Template("[{{$b}}default{{/b}}]", name: "parent")
        let child = try Template("{{<parent}}{{$b}}again {{$b}}{{/b}}{{/b}}{{/parent}}", name: "child")
        let library = try TemplateLibrary(compiled: [parent, child])
        let failure = #expect(throws: TemplateError.self) { try child.render(.object([:]), partials: library) }
        #expect(failure?.kind == .tooDeep)
        #expect(failure?.templateName == "child" && failure?.line == 1 && failure?.column == 24)
        #expect(failure.map { "\($0)" }?.contains("block \"b\" nests deeper than 200 levels") == true)
    }
}
