/// The rule RecoKit's computed `link` and `imageSource` values follow: a link is kept only when it
/// is http(s), protocol-relative (`//cdn…`) or relative; anything with another scheme
/// (`javascript:`, `data:`, `vbscript:`, `mailto:`…), however it is disguised with case, spaces or
/// control characters, is dropped.
///
/// The HTML engine applies its own check to every `href` and `src` value; this one also protects
/// plain-text output (the `text` template), where no attribute context exists.
public enum SafeLink {
    /// Whether the link may be shown.
    public static func isAllowed(_ link: String) -> Bool {
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

    /// No control characters, no spaces at all before the first `/`, `?` or `#` of a relative link:
    /// browsers strip some of them, which could turn it into a scheme.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value) && !scalar.properties.isWhitespace
    }
}
