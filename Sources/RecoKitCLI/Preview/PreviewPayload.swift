import Foundation
import RecoKit
import RecoVendors
import RecoRelay

/// One payload of the gallery: what it turned out to be, and what its page shows.
struct PreviewPayload {
    /// What reading the payload gave.
    enum Outcome {
        /// A recommendation reply (possibly with no widget).
        case recommendations(Recommendations<RawProduct>)
        /// A vendor's error reply, read correctly: the page shows the error.
        case vendorError(PayloadError)
        /// A payload that is no recommendation reply, described by its vendor's rules (segments, keys…).
        case other(VendorReplyDescription)
        /// A payload that could not be read, or whose widgets could not be rendered.
        case failed(String)
    }

    /// The file as given.
    let file: String
    /// The page's name in the gallery (`segmentify-home.html`).
    let page: String
    /// The vendor, when known.
    var vendor: String?
    /// What it is.
    var outcome: Outcome
    /// Whether it is a search reply (its widget holds the search results).
    var isSearch = false

    /// The file name without `.json`.
    var name: String { URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent }

    /// Whether the preview should exit non-zero because of this payload.
    var failed: Bool { if case .failed = outcome { true } else { false } }

    /// The widgets to show.
    var widgets: [Widget<RawProduct>] {
        if case .recommendations(let reply) = outcome { reply.widgets } else { [] }
    }

    /// The decoding report: a reply's, or a described payload's notices.
    var report: DecodingReport {
        switch outcome {
        case .recommendations(let reply): reply.report
        case .other(let description): DecodingReport(notices: description.notices)
        default: DecodingReport()
        }
    }

    /// A short label of what the payload is, and its pill colour class.
    var status: (text: String, tone: String) {
        switch outcome {
        case .recommendations(let reply):
            let what = isSearch ? "search results" : "recommendations"
            if reply.widgets.isEmpty { return ("\(what), no widget", "warn") }
            return (report.hasFailures ? "\(what), with failures" : what, report.hasFailures ? "warn" : "ok")
        case .vendorError(let error): return ("error reply \(error.vendorCode ?? "")", "warn")
        case .other(let description): return (description.kind.title.split(separator: " ").dropFirst().joined(separator: " "), "info")
        case .failed: return ("failed", "bad")
        }
    }

    /// One line for the command's output.
    var summary: String {
        switch outcome {
        case .recommendations(let reply):
            let products = reply.widgets.reduce(0) { $0 + $1.items.count }
            var line = "\(plural(reply.widgets.count, "widget")), \(plural(products, "product"))"
            if !report.failures.isEmpty { line += ", \(plural(report.failures.count, "failure"))" }
            if !report.notices.isEmpty { line += ", \(plural(report.notices.count, "notice"))" }
            return line
        case .vendorError(let error): return "an error reply (\(error.vendorCode ?? "no code")): \(error.message)"
        case .other(let description): return "not recommendations: \(description.kind.title)"
        case .failed(let reason): return "FAILED: \(reason)"
        }
    }
}

/// `3 widgets`, `1 widget`.
func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

extension PreviewPayload {
    /// The title of a block whose vendor sends none (Reteno), so the page shows a heading as a shop would.
    static let standInTitle = "Recommended for you"

    /// Reads and decodes a payload file; never throws: a failure becomes the outcome.
    static func read(_ file: String, page: String, language: String) -> PreviewPayload {
        let source = PayloadFile(path: file)
        var kind: VendorPayloadKind?
        do {
            let document = try source.parse()
            kind = document.detectedKind
            if let kind, !kind.carriesRecommendations {
                return PreviewPayload(file: file, page: page, vendor: kind.vendor.rawValue, outcome: .other(try document.describe(kind: kind)))
            }
            let reply = try source.decode(document, language: language, title: standInTitle)
            var payload = PreviewPayload(file: file, page: page, vendor: kind?.vendor.rawValue ?? reply.widgets.first?.vendor.rawValue, outcome: .recommendations(reply))
            payload.isSearch = kind == .segmentifySearch
            return payload
        } catch where error.kind == .vendorError {
            return PreviewPayload(file: file, page: page, vendor: kind?.vendor.rawValue, outcome: .vendorError(error))
        } catch {
            return PreviewPayload(file: file, page: page, vendor: kind?.vendor.rawValue, outcome: .failed(error.description))
        }
    }

    /// `segmentify-home.json` → `segmentify-home.html` (letters, digits, `-`, `_` and `.` kept).
    static func pageName(for file: String, suffix: Int? = nil) -> String {
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let safe = String(stem.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": Character(scalar)
            default: "-"
            }
        })
        return (safe.isEmpty ? "payload" : safe) + (suffix.map { "-\($0)" } ?? "") + ".html"
    }
}
