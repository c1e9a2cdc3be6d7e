import Foundation

/// How a raw field's text is shown: without the whitespace around it, and not at all when blank; and on
/// one line (``singleLine(_:)-(String)``), whatever control characters the vendor put in it.
///
/// Most vendor text starts and ends with a visible ASCII character; such text is taken as it is after
/// looking at two bytes, without walking its characters.
enum DisplayText {
    /// The text without leading and trailing whitespace and newlines; nil when it is empty or blank.
    static func trimmed(_ text: String) -> String? {
        guard let first = text.utf8.first, let last = text.utf8.last else { return nil }
        if isVisibleASCII(first) && isVisibleASCII(last) { return text }
        guard let firstCharacter = text.first, let lastCharacter = text.last else { return nil }
        if !firstCharacter.isWhitespace && !lastCharacter.isWhitespace { return text }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Whether every character of the text is whitespace (true for empty text).
    static func isBlank(_ text: String) -> Bool {
        if let first = text.utf8.first, isVisibleASCII(first) { return false }
        return text.allSatisfy(\.isWhitespace)
    }

    /// The text on one line: each run of control characters (CR, LF, tab and the other C0 controls,
    /// DEL, the C1 controls, U+2028 and U+2029) becomes one space, so a vendor's value can never start a
    /// line of its own in a text rendering ("Lamp\r\n2. Fake  $0.01" is `Lamp 2. Fake  $0.01`). Text
    /// without any is returned as it is after one pass over its bytes.
    static func singleLine(_ text: String) -> String {
        guard text.utf8.contains(where: mayStartLineBreaker) else { return text }
        var result = String.UnicodeScalarView()
        var inRun = false
        for scalar in text.unicodeScalars {
            if breaksLines(scalar) {
                if !inRun { result.append(" ") }
                inRun = true
            } else {
                result.append(scalar)
                inRun = false
            }
        }
        return String(result)
    }

    /// The JSON value with every string in it (nested ones too) on one line; a value that needs no
    /// change is returned as it is.
    static func singleLine(_ json: JSONValue) -> JSONValue {
        switch json {
        case .string(let text):
            let line = singleLine(text)
            return line.utf8.count == text.utf8.count && line == text ? json : .string(line)
        case .array(let elements):
            guard elements.contains(where: needsSingleLine) else { return json }
            return .array(elements.map(singleLine))
        case .object(let members):
            guard members.values.contains(where: needsSingleLine) else { return json }
            return .object(members.mapValues(singleLine))
        case .null, .bool, .number:
            return json
        }
    }

    private static func needsSingleLine(_ json: JSONValue) -> Bool {
        switch json {
        case .string(let text): text.utf8.contains(where: mayStartLineBreaker) && singleLine(text) != text
        case .array(let elements): elements.contains(where: needsSingleLine)
        case .object(let members): members.values.contains(where: needsSingleLine)
        case .null, .bool, .number: false
        }
    }

    /// Whether `singleLine` turns the scalar into a space.
    static func breaksLines(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// A byte that is, or may start, a scalar `singleLine` replaces: ASCII controls, DEL, and the lead
    /// bytes of the C1 controls (0xC2) and of U+2028/U+2029 (0xE2).
    @inline(__always)
    private static func mayStartLineBreaker(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2
    }

    /// A printable ASCII character other than space: a character that starts with this byte is not
    /// whitespace, and neither is one that ends with it.
    @inline(__always)
    static func isVisibleASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}
