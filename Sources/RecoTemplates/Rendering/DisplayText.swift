import Foundation

/// How a raw field's text is shown: without the whitespace around it, and not at all when blank.
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

    /// A printable ASCII character other than space: a character that starts with this byte is not
    /// whitespace, and neither is one that ends with it.
    @inline(__always)
    static func isVisibleASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}
