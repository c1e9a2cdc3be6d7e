import Foundation
import FuzzSupport
import RecoKit
import RecoTemplates

/// Data for a fuzzed template to render: hostile text, nested lists, objects under common names.
private let hostile: TemplateValue = {
    let evil = #"<script>alert(1)</script>"'` javascript:alert(1) {{x}} &amp; \u{0} \r\n"#
    let product: TemplateValue = .object([
        "name": .string(evil), "url": .string("javascript:alert(1)"), "imageUrl": .string("data:text/html,<b>"),
        "price": .number(JSONNumber(text: "-1e400")!), "position": 1, "a": .list([1, 2, .object(["a": "x"])]),
    ])
    return .object([
        "title": .string(evil), "x": .string(evil), "a": product, "b": .bool(true), "c": .null, "d": .list([]),
        "products": .list([product, product, .object(["products": .list([product])])]), "n": .number(JSONNumber(text: "123456789012345678901234567890")!),
    ])
}()

/// Render limits far below the defaults. The fuzzer learns templates that nest sections over the same
/// lists, whose renders run to the step limit: at the default 10,000,000 steps each took about a second
/// here, and the target's rate fell from about 1,000 to 200 runs a second, most of it spent rendering
/// them. At these limits such a render stops within milliseconds, through the same code. The default
/// limits are held by `RenderLimitsTests` and the fuzz regression tests.
private let limits = RenderLimits(maximumSteps: 200_000, maximumOutputBytes: 4 << 20)

/// Template text from the fuzzer through the tokenizer and compiler, with HTML escaping for an input of
/// even length and text escaping for odd (one mode a run: a mutation that adds or drops a byte moves a
/// template to the other, and each run costs half of trying both). A template that compiles is rendered
/// with hostile data; one that includes partials is rendered again with itself as its only partial (so
/// partials that include themselves are tried too). Every outcome must be a template or a `TemplateError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let source = FuzzInput(pointer, size).text
    let escaping: TemplateEscaping = size % 2 == 0 ? .html : .none
    guard let template = try? Template(source, name: "self", escaping: escaping) else { return 0 }
    _ = try? template.render(hostile, limits: limits)
    if !template.includedNames.isEmpty, let library = try? TemplateLibrary(compiled: [template], missingPartials: .renderEmpty) {
        _ = try? template.render(hostile, partials: library, limits: limits)
    }
    return 0
}
