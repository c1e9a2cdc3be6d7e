/// Reads the scheme a browser would see at the start of a URL, after the tricks used to hide one:
/// character references, whitespace and control characters, mixed case.
enum URLScheme {
    /// The lowercased scheme (the text before the first `:` that comes before any `/`, `?`, `#` or `\`),
    /// with ignorable characters removed; nil when the URL has no scheme (relative or protocol-relative).
    static func leading(_ url: String) -> String? {
        switch quickScan(url) {
        case .noScheme: return nil
        case .http: return "http"
        case .https: return "https"
        case .scheme(let length): return String(url.utf8.prefix(length))!.lowercased()
        case .unsure: return carefulScan(url)
        }
    }

    /// Whether the URL is http(s), relative or protocol-relative.
    static func isWebOrRelative(_ url: String) -> Bool {
        switch quickScan(url) {
        case .noScheme, .http, .https: return true
        case .scheme: return false
        case .unsure:
            guard let scheme = carefulScan(url) else { return true }
            return scheme == "http" || scheme == "https"
        }
    }

    private enum QuickResult {
        case noScheme
        case http
        case https
        case scheme(length: Int)
        case unsure
    }

    /// The common case, over plain ASCII bytes: a path, `//host`, or `https:`; anything unusual is left to
    /// ``carefulScan(_:)``.
    private static func quickScan(_ url: String) -> QuickResult {
        url.utf8.withContiguousStorageIfAvailable { bytes -> QuickResult in
            for index in 0..<min(bytes.count, 64) {
                switch bytes[index] {
                case UInt8(ascii: ":"):
                    if index == 0 { return .unsure }
                    return isHTTP(bytes, index)
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "\\"): return .noScheme
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "%"):
                    continue
                default: return .unsure
                }
            }
            return bytes.count <= 64 ? .noScheme : .unsure
        } ?? .unsure
    }

    private static func isHTTP(_ bytes: UnsafeBufferPointer<UInt8>, _ length: Int) -> QuickResult {
        guard length == 4 || length == 5 else { return .scheme(length: length) }
        guard bytes[0] | 0x20 == 0x68, bytes[1] | 0x20 == 0x74, bytes[2] | 0x20 == 0x74, bytes[3] | 0x20 == 0x70 else {
            return .scheme(length: length)
        }
        if length == 4 { return .http }
        return bytes[4] | 0x20 == 0x73 ? .https : .scheme(length: length)
    }

    private static func carefulScan(_ url: String) -> String? {
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
