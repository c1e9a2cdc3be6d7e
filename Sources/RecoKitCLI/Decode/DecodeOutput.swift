import Foundation
import RecoKit
import RecoVendors
import RecoRelay

/// What `recokit decode` prints: a summary for people, or JSON for programs, written piece by piece
/// to a ``TextSink`` (standard output through a ``BufferedOutput``), so the cost is linear in what is
/// printed and the whole output is never held at once.
enum DecodeOutput {
    /// The widest the productId and name columns grow: a longer value is printed whole, but does not
    /// push every other row's columns to its width.
    static let idColumnLimit = 40
    static let nameLength = 48
    /// The deepest a product field's value is indented; a value nested deeper is written on one line.
    /// Indenting every level of `[[[[…]]]]` would print a number of spaces that grows with the square
    /// of the depth, from input that grows with the depth.
    static let indentedDepth = 8

    /// The widgets, their numbered products, then failures and notices. Every line has its control
    /// characters escaped (``TerminalText``).
    static func writeSummary(_ reply: Recommendations<RawProduct>, to out: inout some TextSink) {
        var lines = Lines(out: out)
        let count = reply.widgets.count
        lines.add(count == 0 ? "No widgets." : "\(count) widget\(count == 1 ? "" : "s")")
        for (number, widget) in reply.widgets.enumerated() {
            lines.add("")
            lines.add("Widget \(number + 1): \(widget.instanceId)")
            lines.add("  vendor         \(widget.vendor)")
            lines.add("  instanceId     \(widget.instanceId)")
            lines.add("  interactionId  \(widget.interactionId)")
            lines.add("  title          \(widget.title.isEmpty ? "(none)" : widget.title)")
            lines.add("  products       \(widget.items.count)")
            productRows(widget.items, into: &lines)
        }
        lines.add("")
        let report = reply.report
        if report.failureCount == 0 {
            lines.add("Every product decoded.")
        } else {
            lines.add("\(report.failureCount) product\(report.failureCount == 1 ? "" : "s") did not decode:")
            for failure in report.failures { lines.add("  \(failure)") }
        }
        noticeLines(report.notices, total: report.noticeCount, into: &lines)
        if let unlisted = report.unlistedSummary { lines.add("And \(unlisted).") }
        out = lines.out
    }

    /// `{"failures":[{"path","reason"}],"notices":[{"kind","path","message"}],"widgets":[…]}`, keys
    /// sorted and indented as ``JSONWriter`` writes them; each product is its fields (after field
    /// selection) with its 1-based `position`.
    static func writeJSON(_ reply: Recommendations<RawProduct>, to out: inout some TextSink) {
        let failures: [JSONValue] = reply.report.failures.map { ["path": .string($0.path.description), "reason": .string($0.reason)] }
        var text = "{\n  \"failures\": "
        JSONWriter.write(.array(failures), to: &text, style: .pretty, indent: 1)
        text += ",\n  \"notices\": "
        JSONWriter.write(.array(notices(reply.report.notices)), to: &text, style: .pretty, indent: 1)
        if let unlisted = unlisted(reply.report) {
            text += ",\n  \"unlisted\": "
            JSONWriter.write(unlisted, to: &text, style: .pretty, indent: 1)
        }
        text += ",\n  \"widgets\": "
        out.write(text)
        guard !reply.widgets.isEmpty else { out.write("[]\n}\n"); return }
        out.write("[")
        var scratch = ""
        for (index, widget) in reply.widgets.enumerated() {
            scratch = index > 0 ? ",\n    {\n      \"instanceId\": " : "\n    {\n      \"instanceId\": "
            JSONWriter.writeString(widget.instanceId, to: &scratch)
            scratch += ",\n      \"interactionId\": "
            JSONWriter.writeString(widget.interactionId, to: &scratch)
            scratch += ",\n      \"products\": "
            out.write(scratch)
            if widget.items.isEmpty {
                out.write("[]")
            } else {
                out.write("[")
                for (number, item) in widget.items.enumerated() {
                    scratch.removeAll(keepingCapacity: true)
                    scratch += number > 0 ? ",\n        {" : "\n        {"
                    writeProduct(item, to: &scratch)
                    scratch += "\n        }"
                    out.write(scratch)
                }
                out.write("\n      ]")
            }
            scratch = ",\n      \"title\": "
            JSONWriter.writeString(widget.title, to: &scratch)
            scratch += ",\n      \"vendor\": "
            JSONWriter.writeString(widget.vendor.rawValue, to: &scratch)
            scratch += "\n    }"
            out.write(scratch)
        }
        out.write("\n  ]\n}\n")
    }

    /// A product's members at indentation level 5, `position` among them in its sorted place (it
    /// replaces a field of that name).
    private static func writeProduct(_ item: WidgetItem<RawProduct>, to text: inout String) {
        let fields = item.raw.fields
        var keys = Array(fields.keys)
        if fields["position"] == nil { keys.append("position") }
        keys.sort()
        for (index, key) in keys.enumerated() {
            text += index > 0 ? ",\n          " : "\n          "
            JSONWriter.writeString(key, to: &text)
            text += ": "
            if key == "position" {
                text += String(item.position)
            } else {
                writeValue(fields[key]!, to: &text, indent: 5)
            }
        }
    }

    /// The value indented as ``JSONWriter`` does when it is at most ``indentedDepth`` deep, on one line otherwise.
    private static func writeValue(_ value: JSONValue, to text: inout String, indent: Int) {
        JSONWriter.write(value, to: &text, style: depth(of: value, over: indentedDepth) > indentedDepth ? .compact : .pretty, indent: indent)
    }

    /// How deeply arrays and objects nest in the value (0 for a scalar), counted no further than `limit + 1`.
    private static func depth(of value: JSONValue, over limit: Int) -> Int {
        guard limit >= 0 else { return 1 }
        switch value {
        case .array(let elements):
            var deepest = 0
            for element in elements where deepest <= limit { deepest = max(deepest, depth(of: element, over: limit - 1)) }
            return deepest + 1
        case .object(let members):
            var deepest = 0
            for member in members.values where deepest <= limit { deepest = max(deepest, depth(of: member, over: limit - 1)) }
            return deepest + 1
        case .null, .bool, .number, .string:
            return 0
        }
    }

    /// A payload without recommendations: what it is, what it holds, and its notices.
    static func writeSummary(_ description: VendorReplyDescription, to out: inout some TextSink) {
        var lines = Lines(out: out)
        lines.add("This is \(description.kind.title) (\(description.kind.vendor)): it carries no recommendations.")
        for line in description.lines { lines.add("  " + line) }
        noticeLines(description.notices, into: &lines)
        out = lines.out
    }

    /// `{"kind","vendor","payload","notices":[{"kind","path","message"}]}` for a payload without recommendations.
    static func writeJSON(_ description: VendorReplyDescription, to out: inout some TextSink) {
        var text = "{\n  \"kind\": "
        JSONWriter.writeString(description.kind.rawValue, to: &text)
        text += ",\n  \"notices\": "
        JSONWriter.write(.array(notices(description.notices)), to: &text, style: .pretty, indent: 1)
        text += ",\n  \"payload\": "
        writeValue(description.json, to: &text, indent: 1)
        text += ",\n  \"vendor\": "
        JSONWriter.writeString(description.kind.vendor.rawValue, to: &text)
        text += "\n}\n"
        out.write(text)
    }

    private static func notices(_ notices: [DecodingNotice]) -> [JSONValue] {
        notices.map { ["kind": .string($0.kind.name), "path": .string($0.path.description), "message": .string($0.message)] }
    }

    /// `{"failures":3,"notices":{"duplicateEliminated":2000}}`: what the report counted but does not list
    /// (past ``RecoKit/DecodingReport/mostListed``), nil when it lists everything.
    private static func unlisted(_ report: DecodingReport) -> JSONValue? {
        guard report.unlistedSummary != nil else { return nil }
        var notices: [String: JSONValue] = [:]
        for (kind, count) in report.unlistedNotices { notices[kind.name] = .number(JSONNumber(text: String(count))!) }
        return ["failures": .number(JSONNumber(text: String(report.unlistedFailures))!), "notices": .object(notices)]
    }

    private static func noticeLines<Sink: TextSink>(_ notices: [DecodingNotice], total: Int? = nil, into lines: inout Lines<Sink>) {
        guard !notices.isEmpty else { return }
        lines.add("Notices (\(total ?? notices.count)):")
        for notice in notices { lines.add("  \(notice)") }
    }

    /// `   1. 240-LV09   Luma Yoga For Life   32`, columns aligned. A column is padded only when a
    /// later one follows on the row, so no row ends in spaces; ids longer than ``idColumnLimit`` are
    /// printed whole without widening the column.
    private static func productRows<Sink: TextSink>(_ items: [WidgetItem<RawProduct>], into lines: inout Lines<Sink>) {
        let rows = items.map { item in (position: "\(item.position).", id: item.product.productId, name: name(item.raw), price: price(item.raw)) }
        let positionWidth = rows.map(\.position.count).max() ?? 0
        let idWidth = min(rows.map { $0.id.count }.max() ?? 0, idColumnLimit)
        let nameWidth = rows.map(\.name.count).max() ?? 0
        for row in rows {
            var line = "    " + String(repeating: " ", count: positionWidth - row.position.count) + row.position
            line += " " + row.id
            let hasName = !row.name.isEmpty, hasPrice = !row.price.isEmpty
            if hasName || hasPrice { line += padding(row.id, idWidth) }
            if nameWidth > 0, hasName || hasPrice {
                line += "  " + row.name
                if hasPrice { line += padding(row.name, nameWidth) }
            }
            if hasPrice { line += "  " + row.price }
            lines.add(withoutTrailingSpaces(line))
        }
    }

    /// The product's name, cut to ``nameLength`` characters.
    private static func name(_ raw: RawProduct) -> String {
        guard let name = raw["name"]?.scalarText else { return "" }
        // Counting stops at the limit: a 1 MB name is not walked to its end.
        guard name.utf8.count > nameLength, name.index(name.startIndex, offsetBy: nameLength, limitedBy: name.endIndex).map({ $0 < name.endIndex }) == true else { return name }
        return String(name.prefix(nameLength - 1)) + "…"
    }

    /// The price exactly as a decimal (a number or a numeric string), else the vendor's formatted
    /// `priceText`, with the currency when there is one.
    private static func price(_ raw: RawProduct) -> String {
        var text = raw["price"]?.decimalValue.map { "\($0)" } ?? raw["price"]?.scalarText ?? raw["priceText"]?.scalarText ?? ""
        if !text.isEmpty, let currency = raw["currency"]?.stringValue, !currency.isEmpty { text += " " + currency }
        return text
    }

    /// The spaces that pad `text` to `width` characters as people see them (none when it is wider).
    private static func padding(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count))
    }

    /// The line without the spaces it ends with, found in one backward pass over its bytes.
    private static func withoutTrailingSpaces(_ line: String) -> String {
        let bytes = line.utf8
        guard bytes.last == UInt8(ascii: " ") else { return line }
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: " ") { end = bytes.index(before: end) }
        return String(line[..<end])
    }
}

/// Lines written to a sink, each with its control characters escaped.
private struct Lines<Sink: TextSink> {
    var out: Sink

    mutating func add(_ line: String) {
        out.write(TerminalText.escaped(line))
        out.write("\n")
    }
}
