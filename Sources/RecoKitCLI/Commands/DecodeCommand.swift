import Foundation
import RecoKit
import RecoVendors
import RecoRelay

/// `recokit decode`: reads a vendor's recommendation payload and prints its widgets, as a summary or
/// as JSON, followed by every product that did not decode and everything passed over.
enum DecodeCommand: Command {
    static let name = "decode"
    static let summary = "Decode a vendor payload and list its widgets, products and failures"
    static let usage = """
        Usage: recokit decode PAYLOAD [options]

        Decodes a vendor's recommendation payload (a file, or - for standard input) and prints its
        widgets: vendor, instanceId, interactionId, title and numbered products; then every product
        that did not decode (with its JSON path and reason) and everything passed over on purpose.

        Options:
          --vendor auto|segmentify|reteno|bloomreach|connectif|8digits
                            Who sent the payload. auto (the default) recognises it from its shape:
                            "recoms" is Reteno, "responses"/"statusCode" Segmentify, "search" a
                            Segmentify search reply, an array of strings a Segmentify key reply,
                            "result" an 8digits reply, "purchase" a Connectif purchase event, and
                            "content"/"discovery"/"merchandising" a Bloomreach segments answer.
                            Payloads without recommendations are checked by their vendor's rules
                            and described (with --json: {"kind","vendor","payload","notices"}).
          --variant rNvN    The Reteno variant the reply answers (r1107v1482): the widget's
                            instanceId and interactionId. Reteno replies do not name it.
          --title TEXT      The Reteno widget's title (Reteno sends none).
          --fields a,b      Keep only these product fields (productId is always kept);
                            --fields "" keeps the productId only. Default: every field.
          --filter name=v1,v2
                            Keep products whose attribute (a name or a dotted path such as
                            params.color) matches any of the values, ignoring case. Repeat it:
                            a product must pass every filter.
          --lang CODE       The language of titles and texts when the vendor sends several (TR, EN).
          --json            Print JSON instead of the summary:
                            {"widgets":[{"vendor","instanceId","interactionId","title",
                              "products":[{"productId","position",...the product's fields}]}],
                             "failures":[{"path","reason"}],"notices":[{"kind","path","message"}],
                             "unlisted":{"failures","notices":{kind:count}}} (only when a report
                             counted more than the 1,000 failures or notices it lists)
        \(LimitsOption.help)
          --strict          Exit 1 when any product did not decode.
          -h, --help        Show this help.

        Exit status:
          0  the payload was decoded; products that did not decode are listed, and still exit 0
             unless --strict is given
          1  the payload cannot be read or is not a valid payload (one line on standard error:
             error: <file>: <what> at <JSON path>), or --strict and a product did not decode
          2  the command line is wrong
        """

    static func run(_ words: [String]) async throws -> Int32 {
        let arguments = try Arguments(words, options: ["vendor", "variant", "title", "fields", "filter", "lang", LimitsOption.name], flags: ["json", "strict"])
        let options = try DecodeOptions(arguments)

        let file = options.payload == "-" ? "<stdin>" : options.payload
        let reply: Recommendations<RawProduct>
        do {
            let document = try PayloadDocument(parsing: PayloadFile(path: options.payload).read(maximumBytes: options.limits.json.maximumInputBytes),
                                                limits: options.limits.json)
            if options.variantId != nil, document.detectedKind != .retenoRecommendations, options.vendor != .reteno {
                throw UsageError("--variant names a Reteno variant, but \(file) is not a Reteno reply")
            }
            let kind = try document.kind(vendor: options.vendor)
            guard kind.carriesRecommendations else {
                let description = try document.describe(kind: kind)
                var out = BufferedOutput()
                if options.json { DecodeOutput.writeJSON(description, to: &out) } else { DecodeOutput.writeSummary(description, to: &out) }
                out.flush()
                return 0
            }
            reply = try document.decode(vendor: options.vendor, language: options.language, variantId: options.variantId, title: options.title, limits: options.limits)
        } catch let error as PayloadError {
            Console.error("error: " + (error.kind == .unreadable ? error.description : error.inFile(file).description))
            return 1
        }
        let decoded = reply.decoded(as: RawProduct.self, fields: options.fields, filters: options.filters)
        var out = BufferedOutput()
        if options.json { DecodeOutput.writeJSON(decoded, to: &out) } else { DecodeOutput.writeSummary(decoded, to: &out) }
        out.flush()
        return options.strict && decoded.report.hasFailures ? 1 : 0
    }
}

/// The options of `recokit decode`, checked.
struct DecodeOptions {
    var payload: String
    var vendor: Vendor?
    var variantId: RetenoVariantId?
    var title: String
    var fields: FieldSelection
    var filters: [ProductFilter]
    var language: String?
    var json: Bool
    var strict: Bool
    var limits: ReplyLimits

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let payload = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "decode needs a PAYLOAD file (or - for standard input)" : "decode takes one PAYLOAD, not \(arguments.positionals.count)")
        }
        self.payload = payload
        switch arguments.value("vendor")?.lowercased() {
        case nil, "auto": vendor = nil
        case "segmentify": vendor = .segmentify
        case "reteno": vendor = .reteno
        case "bloomreach": vendor = .bloomreach
        case "connectif": vendor = .connectif
        case "8digits", "eightdigits": vendor = .eightDigits
        case let other?: throw UsageError("--vendor is auto, segmentify, reteno, bloomreach, connectif or 8digits, not \"\(other)\"")
        }
        if let text = arguments.value("variant") {
            do { variantId = try RetenoVariantId(text) } catch { throw UsageError("--variant: \(error)") }
        }
        title = arguments.value("title") ?? ""
        if let list = arguments.value("fields") {
            let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            fields = FieldSelection(fields: names)
        } else {
            fields = .all
        }
        filters = []
        for text in arguments.values("filter") {
            do { filters.append(try ProductFilter(parsing: text)) } catch { throw UsageError("--filter: \(error.message)") }
        }
        language = arguments.value("lang")
        json = arguments.flag("json")
        strict = arguments.flag("strict")
        limits = try LimitsOption.limits(arguments)
    }
}
