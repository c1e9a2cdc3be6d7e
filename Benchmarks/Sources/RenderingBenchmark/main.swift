import BenchmarkSupport
import Foundation
import Mustache
import RecoTemplates
import Stencil

// Renders the same 24-product block with RecoKit's engine, swift-mustache 2.1.1, Stencil 0.15.1 and a
// hand-written String builder that escapes the same way (HTML escaping of every value, and the URL
// check on href/src). Targets: RecoKit at least 3x the renders/s of swift-mustache, and at least 60%
// of the hand-written builder.

// RecoKit: the template compiled once; the data as JSON, as a vendor's products arrive.
let json: JSONValue = [
    "vendor": .string(Block.widget.vendor), "instanceId": .string(Block.widget.instanceId),
    "interactionId": .string(Block.widget.interactionId), "title": .string(Block.widget.title),
    "products": .array(Block.products.enumerated().map { offset, product in
        var fields: [String: JSONValue] = [
            "productId": .string(product.productId), "name": .string(product.name), "url": .string(product.url),
            "image": .string(product.image), "priceText": .string(product.priceText), "position": .number(JSONNumber(offset + 1)),
        ]
        if let old = product.oldPriceText { fields["oldPriceText"] = .string(old) }
        return .object(fields)
    }),
]
let recoTemplate = try Template(Block.mustache, name: "block")
let recoValue = TemplateValue(json)

// `RenderingBenchmark render <template|carousel> <count>` renders the block `count` times and exits: what
// callgrind runs, so that instructions per block are (Ir(3N) - Ir(N)) / 2N, start-up cancelled out.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "render", let count = Int(CommandLine.arguments[3]) {
    var bytes = 0
    if CommandLine.arguments[2] == "carousel" {
        let widget = Widget<RawProduct>(
            vendor: .segmentify, instanceId: Block.widget.instanceId, interactionId: Block.widget.interactionId, title: Block.widget.title,
            rawProducts: try (json["products"]?.arrayValue ?? []).enumerated().map { offset, product in
                (try RawProduct(product), JSONPath.root.appending(key: "products").appending(index: offset))
            })
        let renderer = WidgetRenderer()
        for _ in 0..<count { bytes &+= try renderer.render(widget, template: "carousel").utf8.count }
    } else {
        for _ in 0..<count { bytes &+= try recoTemplate.render(recoValue).utf8.count }
    }
    print(bytes)
    exit(0)
}

// Not part of the targets: the built-in carousel through WidgetRenderer (stylesheet, computed fields such as
// displayName and link, tracking attributes), with the same 24 products as a decoded widget.
let carouselWidget = Widget<RawProduct>(
    vendor: .segmentify, instanceId: Block.widget.instanceId, interactionId: Block.widget.interactionId, title: Block.widget.title,
    rawProducts: try (json["products"]?.arrayValue ?? []).enumerated().map { offset, product in
        (try RawProduct(product), JSONPath.root.appending(key: "products").appending(index: offset))
    })
let widgetRenderer = WidgetRenderer()

// swift-mustache: dictionaries, as its documentation shows.
let mustacheTemplate = try MustacheTemplate(string: Block.mustache)
let mustacheData: [String: Any] = [
    "vendor": Block.widget.vendor, "instanceId": Block.widget.instanceId, "interactionId": Block.widget.interactionId, "title": Block.widget.title,
    "products": Block.products.enumerated().map { offset, product -> [String: Any] in
        var fields: [String: Any] = ["productId": product.productId, "name": product.name, "url": product.url, "image": product.image, "priceText": product.priceText, "position": offset + 1]
        if let old = product.oldPriceText { fields["oldPriceText"] = old }
        return fields
    },
]

// Stencil: the same markup in its syntax, with filters that escape exactly as RecoKit does.
let stencilExtension = Extension()
stencilExtension.registerFilter("e") { value in (value as? String).map(HTMLEscaping.escape) ?? "" }
stencilExtension.registerFilter("url") { value in (value as? String).map { HTMLEscaping.escape(HTMLEscaping.safeURL($0) ?? HTMLEscaping.harmlessURL) } ?? "" }
let stencilEnvironment = Environment(extensions: [stencilExtension])
let stencilTemplate = Stencil.Template(templateString: Block.stencil, environment: stencilEnvironment)
let stencilContext = Context(dictionary: mustacheData, environment: stencilEnvironment)

// The comparison means something only if the outputs agree.
let expected = HandWritten.render()
let reco = try recoTemplate.render(recoValue)
precondition(reco == expected, "RecoKit's output differs from the hand-written builder's")
precondition(!reco.contains("javascript:"), "a javascript: URL reached the page")
let mustacheOutput = mustacheTemplate.render(mustacheData)
let stencilOutput = try stencilTemplate.render(stencilContext)
let carouselOutput = try widgetRenderer.render(carouselWidget, template: "carousel")
precondition(!carouselOutput.contains("javascript:"), "a javascript: URL reached the built-in carousel")

// Every renderer is measured in the same rounds, taking turns, so that load from other work on the machine
// falls on all of them alike.
let timings = try Timing.interleaved([
    { _ = HandWritten.render() },
    { _ = try recoTemplate.render(recoValue) },
    { _ = mustacheTemplate.render(mustacheData) },
    { _ = try stencilTemplate.render(stencilContext) },
    { _ = try widgetRenderer.render(carouselWidget, template: "carousel") },
])
let (handWritten, recokit, swiftMustache, stencil, carousel) = (timings[0], timings[1], timings[2], timings[3], timings[4])

print("Rendering one 24-product block (\(expected.utf8.count) bytes of HTML)")
var table = Table("renderer", "renders/s", "µs/render", "RecoKit vs it", "same output")
@MainActor func row(_ name: String, _ measurement: Timing, _ output: String) {
    table.add(name, format(measurement.operationsPerSecond, decimals: 0), format(measurement.secondsPerOperation * 1e6, decimals: 1),
              format(recokit.operationsPerSecond / measurement.operationsPerSecond, decimals: 2) + "x", output == expected ? "yes" : "no (\(output.utf8.count) bytes)")
}
row("hand-written String builder", handWritten, expected)
row("RecoKit (Template, JSON data)", recokit, reco)
row("swift-mustache 2.1.1", swiftMustache, mustacheOutput)
row("Stencil 0.15.1", stencil, stencilOutput)
table.add("RecoKit built-in carousel (full path)", format(carousel.operationsPerSecond, decimals: 0), format(carousel.secondsPerOperation * 1e6, decimals: 1),
          format(recokit.operationsPerSecond / carousel.operationsPerSecond, decimals: 2) + "x", "n/a (own markup, \(carouselOutput.utf8.count) bytes)")
table.print()
print("The built-in carousel row renders the same 24 products through WidgetRenderer, with its own markup and stylesheet; it is not part of the targets.")
print("swift-mustache escapes HTML but does not check URLs, so its output keeps the javascript: link; Stencil uses filters that escape as RecoKit does.")
let vsMustache = recokit.operationsPerSecond / swiftMustache.operationsPerSecond
let vsHand = recokit.operationsPerSecond / handWritten.operationsPerSecond
print("target: at least 3x swift-mustache: \(format(vsMustache, decimals: 1))x, \(verdict(vsMustache >= 3))")
print("target: at least 60% of the hand-written builder: \(format(vsHand * 100, decimals: 0))%, \(verdict(vsHand >= 0.6))")
