import Foundation
import RecoKit
import RecoVendors

/// What `recokit decode` prints: a summary for people, or JSON for programs.
enum DecodeOutput {
    /// The widgets, their numbered products, then failures and notices.
    static func summary(_ reply: Recommendations<RawProduct>) -> String {
        var lines: [String] = []
        let count = reply.widgets.count
        lines.append(count == 0 ? "No widgets." : "\(count) widget\(count == 1 ? "" : "s")")
        for (number, widget) in reply.widgets.enumerated() {
            lines.append("")
            lines.append("Widget \(number + 1): \(widget.instanceId)")
            lines.append("  vendor         \(widget.vendor)")
            lines.append("  instanceId     \(widget.instanceId)")
            lines.append("  interactionId  \(widget.interactionId)")
            lines.append("  title          \(widget.title.isEmpty ? "(none)" : widget.title)")
            lines.append("  products       \(widget.items.count)")
            lines += productRows(widget.items)
        }
        lines.append("")
        let failures = reply.report.failures
        if failures.isEmpty {
            lines.append("Every product decoded.")
        } else {
            lines.append("\(failures.count) product\(failures.count == 1 ? "" : "s") did not decode:")
            lines += failures.map { "  \($0)" }
        }
        if !reply.report.notices.isEmpty {
            lines.append("Notices (\(reply.report.notices.count)):")
            lines += reply.report.notices.map { "  \($0)" }
        }
        return lines.map(oneLine).joined(separator: "\n") + "\n"
    }

    /// `{"widgets":[…],"failures":[{"path","reason"}],"notices":[{"kind","path","message"}]}`; each
    /// product is its fields (after field selection) with its 1-based `position`.
    static func json(_ reply: Recommendations<RawProduct>) -> String {
        let widgets: [JSONValue] = reply.widgets.map { widget in
            let products: [JSONValue] = widget.items.map { item in
                var fields = item.raw.fields
                fields["position"] = .number(JSONNumber(item.position))
                return .object(fields)
            }
            return [
                "vendor": .string(widget.vendor.rawValue),
                "instanceId": .string(widget.instanceId),
                "interactionId": .string(widget.interactionId),
                "title": .string(widget.title),
                "products": .array(products),
            ]
        }
        let failures: [JSONValue] = reply.report.failures.map { ["path": .string($0.path.description), "reason": .string($0.reason)] }
        let document: JSONValue = ["widgets": .array(widgets), "failures": .array(failures), "notices": .array(notices(reply.report.notices))]
        return JSONWriter.string(document, style: .pretty) + "\n"
    }

    /// A payload without recommendations: what it is, what it holds, and its notices.
    static func summary(_ description: VendorReplyDescription) -> String {
        var lines = ["This is \(description.kind.title) (\(description.kind.vendor)): it carries no recommendations."]
        lines += description.lines.map { "  " + $0 }
        if !description.notices.isEmpty {
            lines.append("Notices (\(description.notices.count)):")
            lines += description.notices.map { "  \($0)" }
        }
        return lines.map(oneLine).joined(separator: "\n") + "\n"
    }

    /// `{"kind","vendor","payload","notices":[{"kind","path","message"}]}` for a payload without recommendations.
    static func json(_ description: VendorReplyDescription) -> String {
        let document: JSONValue = [
            "kind": .string(description.kind.rawValue),
            "vendor": .string(description.kind.vendor.rawValue),
            "payload": description.json,
            "notices": .array(notices(description.notices)),
        ]
        return JSONWriter.string(document, style: .pretty) + "\n"
    }

    private static func notices(_ notices: [DecodingNotice]) -> [JSONValue] {
        notices.map { ["kind": .string($0.kind.name), "path": .string($0.path.description), "message": .string($0.message)] }
    }

    /// `   1. 240-LV09   Luma Yoga For Life   32`, columns aligned.
    private static func productRows(_ items: [WidgetItem<RawProduct>]) -> [String] {
        let rows = items.map { item in (position: "\(item.position).", id: item.product.productId, name: name(item.raw), price: price(item.raw)) }
        let positionWidth = rows.map(\.position.count).max() ?? 0
        let idWidth = rows.map(\.id.count).max() ?? 0
        let nameWidth = rows.map(\.name.count).max() ?? 0
        return rows.map { row in
            var line = "    " + String(repeating: " ", count: positionWidth - row.position.count) + row.position
            line += " " + pad(row.id, idWidth)
            if nameWidth > 0 { line += "  " + pad(row.name, nameWidth) }
            if !row.price.isEmpty { line += "  " + row.price }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// The product's name, cut to 48 characters.
    private static func name(_ raw: RawProduct) -> String {
        guard let name = raw["name"]?.scalarText else { return "" }
        return name.count > 48 ? String(name.prefix(47)) + "…" : name
    }

    /// The price exactly as a decimal (a number or a numeric string), else the vendor's formatted
    /// `priceText`, with the currency when there is one.
    private static func price(_ raw: RawProduct) -> String {
        var text = raw["price"]?.decimalValue.map { "\($0)" } ?? raw["price"]?.scalarText ?? raw["priceText"]?.scalarText ?? ""
        if !text.isEmpty, let currency = raw["currency"]?.stringValue, !currency.isEmpty { text += " " + currency }
        return text
    }

    /// Pads by characters as people see them (not UTF-16 units).
    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
