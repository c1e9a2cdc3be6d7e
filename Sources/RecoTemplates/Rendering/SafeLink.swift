/// The rule RecoKit's computed `link` and `imageSource` values follow: a link is kept only when it
/// is http(s), protocol-relative (`//cdn…`) or relative; anything with another scheme
/// (`javascript:`, `data:`, `vbscript:`, `mailto:`…), however it is disguised with case, spaces or
/// control characters, is dropped.
///
/// The HTML engine applies its own check to every `href` and `src` value; this one also protects
/// plain-text output (the `text` template), where no attribute context exists. It is the engine's rule
/// (``HTMLEscaping/isSafeURL(_:)``, which also decodes character references such as `&#x3A;`) and, on top,
/// a relative link may have no space or control character before its first `/`, `?` or `#`: every link
/// allowed here is allowed by the engine.
public enum SafeLink {
    /// Whether the link may be shown.
    public static func isAllowed(_ link: String) -> Bool {
        guard URLScheme.isWebOrRelative(link) else { return false }
        if let verdict = asciiVerdict(link) { return verdict }
        var scheme = ""
        for scalar in link.unicodeScalars {
            switch scalar {
            case ":":
                let name = scheme.lowercased()
                return name == "http" || name == "https"
            case "/", "?", "#":
                return scheme.unicodeScalars.allSatisfy(isPlain)
            default:
                scheme.unicodeScalars.append(scalar)
            }
        }
        return scheme.unicodeScalars.allSatisfy(isPlain)
    }

    /// The same rule read from the bytes, when everything before the first `:`, `/`, `?` or `#` is ASCII
    /// (nearly every link); nil otherwise, and the scalar-by-scalar rule above decides.
    private static func asciiVerdict(_ link: String) -> Bool? {
        var scheme: UInt64 = 0  // the first bytes before the delimiter, lowercased, packed
        var length = 0
        var plain = true
        for byte in link.utf8 {
            switch byte {
            case UInt8(ascii: ":"):
                return (length == 4 && scheme == http) || (length == 5 && scheme == https)
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return plain
            case 0x80...:
                return nil
            default:
                plain = plain && byte > 0x20 && byte != 0x7F
                if length < 8 {
                    let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
                    scheme = scheme << 8 | UInt64(lower)
                }
                length += 1
            }
        }
        return plain
    }

    private static let http: UInt64 = 0x68_74_74_70
    private static let https: UInt64 = 0x68_74_74_70_73

    /// No control characters, no spaces at all before the first `/`, `?` or `#` of a relative link:
    /// browsers strip some of them, which could turn it into a scheme.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value) && !scalar.properties.isWhitespace
    }
}
