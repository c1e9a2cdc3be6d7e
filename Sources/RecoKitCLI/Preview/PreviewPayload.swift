import Foundation
import RecoKit
import RecoVendors

/// One payload of the gallery: what it turned out to be, and what its page shows.
struct PreviewPayload {
    /// What reading the payload gave.
    enum Outcome {
        /// A recommendation reply (possibly with no widget).
        case recommendations(Recommendations<RawProduct>)
        /// A vendor's error reply, read correctly: the page shows the error.
        case vendorError(PayloadError)
        /// A payload that is no recommendation reply but is understood (segments, search…).
        case other(kind: String, explanation: String)
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

    /// The decoding report, empty for anything but recommendations.
    var report: DecodingReport {
        if case .recommendations(let reply) = outcome { reply.report } else { DecodingReport() }
    }

    /// A short label of what the payload is, and its pill colour class.
    var status: (text: String, tone: String) {
        switch outcome {
        case .recommendations(let reply):
            let what = isSearch ? "search results" : "recommendations"
            if reply.widgets.isEmpty { return ("\(what), no widget", "warn") }
            return (report.hasFailures ? "\(what), with failures" : what, report.hasFailures ? "warn" : "ok")
        case .vendorError(let error): return ("error reply \(error.vendorCode ?? "")", "warn")
        case .other(let kind, _): return (kind, "warn")
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
        case .vendorError(let error): return "a vendor error reply: \(error.vendorCode ?? error.message)"
        case .other(let kind, _): return kind
        case .failed(let reason): return "FAILED: \(reason)"
        }
    }
}

/// `3 widgets`, `1 widget`.
func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

extension PreviewPayload {
    /// Reads and decodes a payload file; never throws: a failure becomes the outcome.
    static func read(_ file: String, page: String) -> PreviewPayload {
        let source = PayloadFile(path: file)
        var kind: VendorPayloadKind?
        do {
            let data = try source.read()
            kind = (try? JSONValue(parsing: data)).flatMap(VendorPayloads.detect)
            let reply = try source.decode(data)
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
