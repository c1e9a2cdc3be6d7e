import Foundation
import RecoKit
import RecoTemplates
import RecoVendors
import RecoRelay

/// `recokit render`: a payload's widgets as HTML or text, with a built-in template or your own.
enum RenderCommand: Command {
    static let name = "render"
    static let summary = "Render a payload's widgets to HTML or text with a template"
    static let usage = """
        Usage: recokit render PAYLOAD [--template NAME] [--templates DIR] [--format html|text] [-o FILE]

        Decodes PAYLOAD (a vendor reply; - reads standard input) and renders every widget in it, one
        after another, with one template.

        Options:
          --template NAME    the template: carousel (default), grid, list, email, text, or one in DIR
          --templates DIR    a folder of NAME.mustache files, searched before the built-in templates;
                             they may inherit from the built-in ones: {{<carousel}}{{$price}}…{{/price}}{{/carousel}}
          --format html|text html (default), or text: plain text with the text template, not HTML-escaped
          --currency CODE    the currency of products that do not say theirs (e.g. EUR)
          --lang CODE        the language of titles when the vendor sends several (TR, EN)
          --variant rNvN     the Reteno variant the reply answers: the block's tracking ids
          --title TEXT       the title of a Reteno block (Reteno sends none)
          -o, --output FILE  write there instead of standard output
        \(LimitsOption.help)

        Products that fail to decode and other notices are reported on standard error.
        Exit status: 0 rendered, 1 the payload or a template failed, 2 wrong usage.
        """

    static func run(_ words: [String]) async throws -> Int32 {
        let arguments = try Arguments(words, options: ["template", "templates", "format", "output", "currency", "lang", "variant", "title", LimitsOption.name], flags: [])
        guard arguments.positionals.count == 1, let payload = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing PAYLOAD" : "render takes one PAYLOAD, got \(arguments.positionals.count)")
        }
        let format = try RenderFormat(arguments.value("format"))
        var variantId: RetenoVariantId?
        if let text = arguments.value("variant") {
            do { variantId = try RetenoVariantId(text) } catch { throw UsageError("--variant: \(error)") }
        }
        let limits = try LimitsOption.limits(arguments)
        let templateName = arguments.value("template") ?? format.defaultTemplate
        if format == .text, isBuiltInHTML(templateName), !TemplateFolder(path: arguments.value("templates")).holds(templateName) {
            throw UsageError("--format text renders a text template, and \(templateName) is an HTML one: use --format html, or --template text")
        }
        let library: TemplateLibrary
        do {
            library = try TemplateFolder(path: arguments.value("templates")).library(plainText: format == .text ? [templateName] : [])
        } catch {
            Console.error("error: \(error)")
            return 1
        }
        // Said before the payload is read: a wrong name is the whole answer, not a line after its notes.
        guard library.template(named: templateName) != nil else {
            Console.error("error: \(RenderError.unknownTemplate(templateName, available: library.names.sorted()))")
            return 1
        }
        let reply: Recommendations<RawProduct>
        do {
            reply = try PayloadFile(path: payload).decode(language: arguments.value("lang"), variantId: variantId, title: arguments.value("title") ?? "", limits: limits)
        } catch {
            Console.error("error: \(error)")
            return 1
        }
        let name = PayloadFile(path: payload).displayName
        for failure in reply.report.failures { Console.error("warning: \(name): \(failure)") }
        for notice in reply.report.notices { Console.error("note: \(name): \(notice)") }
        if let unlisted = reply.report.unlistedSummary { Console.error("note: \(name): and \(unlisted)") }
        if reply.widgets.isEmpty { Console.error("note: \(name) has no widget to render") }

        let renderer = WidgetRenderer(library: library, defaultCurrency: arguments.value("currency"))
        let output: String
        do {
            output = try renderer.render(reply.widgets, template: templateName)
        } catch {
            Console.error("error: \(error)")
            return 1
        }
        if let file = arguments.value("output") {
            do {
                if let problem = FileProblem.unwritableFile(file) { throw OutputProblem(reason: problem) }
                try ReplacedFile.write(Data(output.utf8), to: URL(fileURLWithPath: file))
            } catch let failure as ReplacedFile.Failure {
                Console.error("error: cannot write \(file): \(failure.reason) (the file is as it was)")
                return 1
            } catch {
                Console.error("error: cannot write \(file): \((error as? OutputProblem)?.reason ?? FileProblem.reason(error))")
                return 1
            }
            Console.error("wrote \(file): \(reply.widgets.count) widget\(reply.widgets.count == 1 ? "" : "s") with \(templateName)")
        } else {
            var out = BufferedOutput()
            out.write(output)
            out.flush()
        }
        return 0
    }

    /// Whether `name` is one of the built-in HTML templates (carousel, grid, list, email and their parts).
    private static func isBuiltInHTML(_ name: String) -> Bool {
        BuiltInTemplates.sources[name] != nil && !BuiltInTemplates.plainText.contains(name)
    }
}

/// Why `-o FILE` cannot be written, found before writing.
private struct OutputProblem: Error {
    let reason: String
}

/// What `render` writes.
enum RenderFormat: Equatable {
    case html, text

    init(_ word: String?) throws(UsageError) {
        switch word?.lowercased() {
        case nil, "html": self = .html
        case "text", "txt": self = .text
        case let other?: throw UsageError("--format must be html or text, not \(other)")
        }
    }

    /// The template used when none is named.
    var defaultTemplate: String { self == .html ? "carousel" : "text" }
}
