import Foundation
import RecoKit
import RecoTemplates
import RecoRelay

/// The static gallery `recokit preview` writes: an index and one page per payload.
struct PreviewGallery {
    /// The HTML templates every widget is shown in, in order, and whether each spans the page.
    static let htmlTemplates: [(name: String, wide: Bool, note: String)] = [
        ("carousel", true, "scrolls sideways"),
        ("grid", true, "wraps to the width"),
        ("list", false, "one product a row"),
        ("email", false, "tables and inline styles"),
    ]

    /// The most products of one widget the page renders in each template (and sends in its tracking
    /// requests): a widget of 20,000 products would make a page of hundreds of megabytes. The page says
    /// when a widget was cut; `recokit render` renders every product.
    static let productsShown = 100
    /// The most widgets of one payload its page shows (each in five renderings); the page says how many more.
    static let widgetsShown = 50
    /// The most failures, and the most notices, listed on a payload's page; the page says how many more.
    static let reportLinesShown = 500

    /// The payload files, in order.
    let files: [String]
    /// The folder to write.
    let output: URL
    /// The renderer for widgets.
    let renderer: WidgetRenderer
    /// The language of widget titles where a vendor sends several (Segmentify's `EN`, `TR`).
    var language = "EN"

    /// Whether each payload is previewed in a process of its own (see ``PreviewProcess``), so that one
    /// that crashes costs only its own page. The command does; a child previewing one page does not.
    var isolated = true

    /// Reads every payload and writes every page, then the index. One payload's failure never stops
    /// the others, not even a crash: its page and the index say what happened.
    /// - Returns: what each payload turned out to be, in file order.
    /// - Throws: only when the folder or a page cannot be written.
    func write() throws -> [PreviewEntry] {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let pages = try TemplateLibrary(templates: PreviewPageTemplates.sources)
        let style = (try? renderer.library.render("reco-style", .null)) ?? ""
        var entries: [PreviewEntry] = []
        var usedPages: Set<String> = ["index.html"]
        for file in files {
            var page = PreviewPayload.pageName(for: file)
            var suffix = 2
            while usedPages.contains(page) { page = PreviewPayload.pageName(for: file, suffix: suffix); suffix += 1 }
            usedPages.insert(page)
            guard isolated else {
                var payload = PreviewPayload.read(file, page: page, language: language)
                entries.append(try writePage(&payload, pages: pages, style: style))
                continue
            }
            do {
                entries.append(try PreviewProcess.preview(file, page: page, output: output, currency: renderer.defaultCurrency, language: language))
            } catch {
                // The child died: its page says so, written here without reading the payload again.
                var payload = PreviewPayload(file: file, page: page, vendor: nil, outcome: .failed(error.description))
                entries.append(try writePage(&payload, pages: pages, style: style))
            }
        }
        let index = try pages.render("preview-index", .context(indexContext(entries)))
        try ReplacedFile.write(Data(index.utf8), to: output.appendingPathComponent("index.html"))
        return entries
    }

    /// Reads one payload and writes its page, without the index (what the process of one payload does).
    func writePage(for file: String, page: String) throws -> PreviewEntry {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let pages = try TemplateLibrary(templates: PreviewPageTemplates.sources)
        let style = (try? renderer.library.render("reco-style", .null)) ?? ""
        var payload = PreviewPayload.read(file, page: page, language: language)
        return try writePage(&payload, pages: pages, style: style)
    }

    private func writePage(_ payload: inout PreviewPayload, pages: TemplateLibrary, style: String) throws -> PreviewEntry {
        var html: String
        do {
            html = try pages.render("preview-payload", .context(pageContext(&payload, style: style)))
        } catch {
            payload.outcome = .failed("rendering its page failed: \(error)")
            html = (try? pages.render("preview-payload", .context(pageContext(&payload, style: style)))) ?? "\(error)"
        }
        try ReplacedFile.write(Data(html.utf8), to: output.appendingPathComponent(payload.page))
        return PreviewEntry(payload)
    }

    private func indexContext(_ entries: [PreviewEntry]) -> JSONValue {
        [
            "payloadCount": .number(JSONNumber(entries.count)),
            "widgetCount": .number(JSONNumber(entries.reduce(0) { $0 + $1.widgetCount })),
            "productCount": .number(JSONNumber(entries.reduce(0) { $0 + $1.productCount })),
            "templateList": .string((Self.htmlTemplates.map(\.name) + ["text"]).joined(separator: ", ")),
            "payloads": .array(Self.indexOrder(entries).map { entry in
                [
                    "name": .string(entry.name),
                    "file": .string(entry.file),
                    "page": .string(entry.page),
                    "vendor": .string(entry.vendor ?? "—"),
                    "status": .string(entry.statusText),
                    "statusClass": .string(entry.statusTone),
                    "widgetSummary": .string(entry.widgetCount == 0 ? "—" : "\(plural(entry.widgetCount, "widget")), \(plural(entry.productCount, "product"))"),
                    "reportSummary": .string(entry.failureCount == 0 && entry.noticeCount == 0 ? "—" : "\(plural(entry.failureCount, "failure")), \(plural(entry.noticeCount, "notice"))"),
                ]
            }),
        ]
    }

    /// The order of the index: payloads that failed first (they need attention), then those with
    /// widgets, then vendor error replies, then replies that carry no recommendations; by file order within each.
    static func indexOrder(_ entries: [PreviewEntry]) -> [PreviewEntry] {
        entries.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
    }

    /// The page's values; a widget that fails to render turns the payload into a failure.
    private func pageContext(_ payload: inout PreviewPayload, style: String) throws -> JSONValue {
        let report = payload.report
        var widgets: [JSONValue] = []
        for (index, widget) in payload.widgets.prefix(Self.widgetsShown).enumerated() {
            widgets.append(try widgetContext(widget, index: index + 1))
        }
        let widgetCapNote: JSONValue = payload.widgets.count > Self.widgetsShown
            ? .string("This payload has \(payload.widgets.count) widgets; the preview shows the first \(Self.widgetsShown) (recokit render renders them all).")
            : .null
        var explanation: JSONValue = .null
        var detail: JSONValue = .null
        var emptyReportNote = "Every product decoded; nothing was skipped."
        switch payload.outcome {
        case .recommendations(let reply) where reply.widgets.isEmpty:
            explanation = "A recommendation reply with no widget to show: no campaign answered, or every block ended up empty (see the report)."
        case .recommendations: break
        case .vendorError(let error):
            explanation = .string("An error reply from \(payload.vendor ?? "the vendor"), not recommendations: \(error.vendorCode ?? "error"). A caller gets it as a PayloadError of kind vendorError:")
            detail = .string(error.description)
            emptyReportNote = "Nothing to decode: an error reply carries no products."
        case .other(let description):
            explanation = .string("This is \(description.kind.title). It carries no recommendations, so there is nothing to render; this is what it holds, decoded by the vendor's rules:")
            detail = .string(description.lines.joined(separator: "\n"))
            emptyReportNote = "Checked by the vendor's rules; nothing was wrong or passed over."
        case .failed(let reason):
            explanation = "This payload could not be previewed."
            detail = .string(reason)
            emptyReportNote = "Nothing was decoded: the payload could not be read (see above)."
        }
        return [
            "name": .string(payload.name),
            "file": .string(payload.file),
            "vendor": .string(payload.vendor ?? "unknown vendor"),
            "status": .string(payload.status.text),
            "statusClass": .string(payload.status.tone),
            "style": .string(style),
            "explanation": explanation,
            "detail": detail,
            "emptyReportNote": .string(emptyReportNote),
            "standIns": payload.vendor == "reteno" && !payload.widgets.isEmpty ? .string(Self.retenoStandIns(currency: renderer.defaultCurrency)) : .null,
            "hasReport": .bool(report.failureCount > 0 || report.noticeCount > 0),
            "reportOpen": .bool(report.failureCount + report.noticeCount <= 5),
            "reportSummary": .string("\(plural(report.failureCount, "failure")), \(plural(report.noticeCount, "notice"))"),
            "failures": .array(Self.reportLines(report.failures.map(\.description), total: report.failureCount, noun: "failure")),
            "notices": .array(Self.reportLines(report.notices.map(\.description), total: report.noticeCount, noun: "notice")),
            "hasWidgets": .bool(!widgets.isEmpty),
            "widgetCapNote": widgetCapNote,
            "widgets": .array(widgets),
        ]
    }

    /// What the page of a Reteno reply shows that the reply does not hold: Reteno sends no title and no currency.
    static func retenoStandIns(currency: String?) -> String {
        "Reteno replies carry neither a title nor a currency. The preview titles each block \"\(PreviewPayload.standInTitle)\""
            + (currency.map { " and shows prices in \($0) (--currency)" } ?? "")
            + "; in your page they come from your own settings (recokit render --title and --currency, WidgetRenderer(defaultCurrency:))."
    }

    /// The first ``reportLinesShown`` lines, then one saying how many more there are.
    /// The first lines of a report's list of `total` entries (the report itself lists at most
    /// `DecodingReport.mostListed` of them), and how many more there were.
    private static func reportLines(_ lines: [String], total: Int, noun: String) -> [JSONValue] {
        let shown = min(lines.count, reportLinesShown)
        guard total > shown else { return lines.map(JSONValue.string) }
        let whereListed = total > lines.count
            ? "recokit decode lists the first \(DecodingReport.mostListed) and counts the rest" : "recokit decode lists them all"
        return lines.prefix(shown).map(JSONValue.string)
            + [.string("… and \(plural(total - shown, "more \(noun)")) not listed here (\(whereListed))")]
    }

    private func widgetContext(_ whole: Widget<RawProduct>, index: Int) throws -> JSONValue {
        let anchor = "widget-\(index)"
        var widget = whole
        var capNote: JSONValue = .null
        if whole.items.count > Self.productsShown {
            widget.items = Array(whole.items.prefix(Self.productsShown))
            capNote = .string("This widget has \(whole.items.count) products; the preview shows the first \(Self.productsShown) in each template and tracking request (recokit render renders them all).")
        }
        var renderings: [JSONValue] = []
        for template in Self.htmlTemplates {
            let html = try renderer.render(widget, template: template.name, blockId: "\(anchor)-\(template.name)", includeStyles: false)
            renderings.append([
                "template": .string(template.name), "note": .string(template.note), "wide": .bool(template.wide),
                "mail": .bool(template.name == "email"), "html": .string(html),
            ])
        }
        let text = try renderer.render(widget, template: "text")
        renderings.append(["template": "text", "note": "plain text, not escaped", "wide": false, "text": .string(text)])
        let requests = PreviewTracking.requests(for: widget)
        let heading = whole.title.allSatisfy(\.isWhitespace) ? "Widget \(index) (no title)" : "\(index). \(widget.title)"
        return [
            "anchor": .string(anchor),
            "heading": .string(heading),
            "tocLabel": .string(widget.title.allSatisfy(\.isWhitespace) ? "Widget \(index) (no title)" : widget.title),
            "vendor": .string(widget.vendor.rawValue),
            "instanceId": .string(widget.instanceId),
            "interactionId": .string(widget.interactionId),
            "productCount": .number(JSONNumber(whole.items.count)),
            "capNote": capNote,
            "path": .string(widget.path.description),
            "renderings": .array(renderings),
            "trackingNote": requests == nil ? .string(PreviewTracking.unavailableNote) : .null,
            "requests": .array((requests ?? []).map { ["label": .string($0.label), "request": .string($0.text)] }),
        ]
    }
}
