/// Reads the scheme a browser would see at the start of a URL, after the tricks used to hide one:
/// character references, whitespace and control characters, mixed case.
enum URLScheme {
    /// The lowercased scheme (the text before the first `:` that comes before any `/`, `?`, `#` or `\`),
    /// with ignorable characters removed; nil when the URL has no scheme (relative or protocol-relative).
    static func leading(_ url: String) -> String? {
        var scheme: [Unicode.Scalar] = []
        var scalars = Array(url.unicodeScalars)[...]
        while let scalar = next(&scalars) {
            switch scalar {
            case ":":
                return String(String.UnicodeScalarView(scheme)).lowercased()
            case "/", "?", "#", "\\":
                return nil
            default:
                if scalar.value <= 0x20 || scalar.value == 0x7F || scalar.properties.isWhitespace
                    || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .control
                {
                    continue
                }
                scheme.append(scalar)
                if scheme.count > 64 { return String(String.UnicodeScalarView(scheme)).lowercased() }
            }
        }
        return nil
    }

    /// The next character, with an HTML character reference (`&#x3a;`, `&#58;`, `&colon;`…) decoded.
    private static func next(_ scalars: inout ArraySlice<Unicode.Scalar>) -> Unicode.Scalar? {
        guard let first = scalars.popFirst() else { return nil }
        guard first == "&" else { return first }
        var lookahead = scalars
        if lookahead.first == "#" {
            lookahead.removeFirst()
            var radix = 10
            if lookahead.first == "x" || lookahead.first == "X" {
                radix = 16
                lookahead.removeFirst()
            }
            var digits = ""
            while let digit = lookahead.first, digit.properties.isASCIIHexDigit, radix == 16 || ("0"..."9").contains(digit) {
                digits.unicodeScalars.append(digit)
                lookahead.removeFirst()
            }
            guard !digits.isEmpty, let value = UInt32(digits.prefix(8), radix: radix) else { return first }
            if lookahead.first == ";" { lookahead.removeFirst() }
            scalars = lookahead
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        var name = ""
        while let letter = lookahead.first, letter.properties.isAlphabetic, name.unicodeScalars.count < 12 {
            name.unicodeScalars.append(letter)
            lookahead.removeFirst()
        }
        guard let decoded = namedReferences[name] else { return first }
        if lookahead.first == ";" { lookahead.removeFirst() }
        scalars = lookahead
        return decoded
    }

    private static let namedReferences: [String: Unicode.Scalar] = [
        "colon": ":", "Tab": "\t", "NewLine": "\n", "sol": "/", "quest": "?", "num": "#", "bsol": "\\",
        "amp": "&", "AMP": "&", "lpar": "(", "rpar": ")", "nbsp": "\u{A0}", "period": ".", "semi": ";",
    ]
}
