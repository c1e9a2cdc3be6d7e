/// Text made safe to print on a terminal: every control character a vendor's value may carry (a
/// backspace that hides what was printed before it, an escape sequence that recolours or clears the
/// screen, a line feed that forges a line of output) is written as a visible Swift escape instead.
///
/// `"a\u{8}b\nc"` prints as `a\u{8}b\nc`. Newline, carriage return and tab become `\n`, `\r`, `\t`;
/// the other C0 controls, DEL, the C1 controls and the bidirectional overrides and isolates (which
/// reorder what a reader sees) become `\u{…}` with the scalar's hex value. Every other character,
/// accented and non-Latin letters included, is kept.
///
/// Every command prints vendor text through this one helper (``Console`` calls it for each line).
package enum TerminalText {
    /// `text` with its control characters as visible escapes. Text without any is returned as it is
    /// after one pass over its bytes.
    package static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: mayStartControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether the scalar is one that `escaped` writes as an escape.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true   // direction marks, embeddings, overrides, isolates
        default: false
        }
    }

    /// A byte that is, or may start, a character `escaped` changes: ASCII controls, DEL, and the lead
    /// bytes of the C1 controls (0xC2) and of the direction characters (0xE2).
    private static func mayStartControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2
    }
}
