import Foundation
import RecoKit

/// The format rules of Segmentify's guide, each throwing an error that names the field.
enum SegmentifyFieldRules {
    /// Non-empty after trimming spaces.
    static func text(_ value: String, _ field: String) throws(SegmentifyEventError) {
        if value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .missing(field) }
    }

    /// A mandatory string: present and not blank.
    @discardableResult
    static func required(_ value: String?, _ field: String) throws(SegmentifyEventError) -> String {
        guard let value else { throw .missing(field) }
        try text(value, field)
        return value
    }

    /// An absolute http(s) URL, or protocol-relative (`//cdn.shop.example/p.jpg`, as Segmentify's examples use).
    static func url(_ value: String, _ field: String) throws(SegmentifyEventError) {
        try text(value, field)
        let lower = value.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { rest = lower.dropFirst(8) }
        else if lower.hasPrefix("http://") { rest = lower.dropFirst(7) }
        else if lower.hasPrefix("//") { rest = lower.dropFirst(2) }
        else { throw .invalid(field, must: "be an http(s) or protocol-relative URL", got: quoted(value)) }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if host.isEmpty || value.contains(where: { $0 == " " || $0 == "\n" }) {
            throw .invalid(field, must: "be an http(s) or protocol-relative URL", got: quoted(value))
        }
    }

    /// Three capital letters (`EUR`, `TRY`): the guide's "short format".
    static func currency(_ value: String, _ field: String) throws(SegmentifyEventError) {
        guard value.count == 3, value.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw .invalid(field, must: "be a three-letter currency code such as EUR", got: quoted(value))
        }
    }

    /// A finite amount, not negative.
    static func amount(_ value: Decimal, _ field: String) throws(SegmentifyEventError) {
        if value.isNaN || value < 0 { throw .invalid(field, must: "be a number ≥ 0", got: value.isNaN ? "NaN" : "\(value)") }
    }

    /// A finite quantity above zero (decimals allowed, such as 2.3 kg).
    static func quantity(_ value: Decimal, _ field: String) throws(SegmentifyEventError) {
        if value.isNaN || value <= 0 { throw .invalid(field, must: "be a number > 0", got: value.isNaN ? "NaN" : "\(value)") }
    }

    /// `DD.MM.YYYY`, a real calendar day.
    static func date(_ value: String, _ field: String) throws(SegmentifyEventError) {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        let digits = parts.map { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4, !digits.contains(false),
              let day = Int(parts[0]), let month = Int(parts[1]), let year = Int(parts[2]),
              (1...12).contains(month), year >= 1 else {
            throw .invalid(field, must: "be a date as DD.MM.YYYY", got: quoted(value))
        }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else {
            throw .invalid(field, must: "be a real calendar day as DD.MM.YYYY", got: quoted(value))
        }
    }

    /// `name@domain.tld`, without spaces.
    static func email(_ value: String, _ field: String) throws(SegmentifyEventError) {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !value.contains(where: \.isWhitespace) else {
            throw .invalid(field, must: "be an email address", got: quoted(value))
        }
    }

    /// Every element non-blank (colors, sizes, labels, segments).
    static func list(_ values: [String], _ field: String) throws(SegmentifyEventError) {
        for (index, value) in values.enumerated() { try text(value, "\(field)[\(index)]") }
    }

    static func quoted(_ value: String) -> String {
        var text = ""
        JSONWriter.writeString(value, to: &text)
        return text
    }

    /// A decimal as a JSON number, keeping its exact digits.
    static func number(_ value: Decimal) -> JSONValue { .number(JSONNumber(value)) }

    /// Strings as a JSON array.
    static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}
