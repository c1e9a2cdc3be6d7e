/// HTML escaping and URL safety, as the engine applies them; public so that renderers can reuse them.
///
/// ```swift
/// HTMLEscaping.escape(#"<b>"Tom's"</b>"#)       // "&lt;b&gt;&quot;Tom&#39;s&quot;&lt;/b&gt;"
/// HTMLEscaping.safeURL("//cdn.example.com/a.jpg")   // "//cdn.example.com/a.jpg"
/// HTMLEscaping.safeURL("JaVa&#x53;cript:alert(1)")  // nil
/// ```
public enum HTMLEscaping {
    /// What an unsafe URL is replaced with: a URL that does nothing.
    public static let harmlessURL = "about:invalid"

    /// Bytes escaped in text and quoted attribute values: `"` `&` `'` `<` `>`.
    private static let textMask: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E
    /// Also escaped in unquoted attribute values and inside tags: whitespace, `=`, and (below 64) nothing else.
    private static let unquotedMask: UInt64 = textMask | 1 << 0x20 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0C | 1 << 0x0D | 1 << 0x3D

    /// The text escaped for HTML text and attribute values: `& < > " '` become entities.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        append(text, to: &result)
        return result
    }

    /// Appends the text escaped for HTML text and quoted attribute values (`& < > " '`).
    public static func append(_ text: String, to output: inout String) {
        append(text, mask: textMask, backquote: false, to: &output)
    }

    /// Appends the text escaped for an unquoted attribute value or the inside of a tag: besides `& < > " '`,
    /// whitespace, `=` and `` ` `` become entities, so the value cannot end the attribute.
    public static func appendUnquoted(_ text: String, to output: inout String) {
        append(text, mask: unquotedMask, backquote: true, to: &output)
    }

    private static func append(_ text: String, mask: UInt64, backquote: Bool, to output: inout String) {
        let utf8 = text.utf8
        let firstEscape: Int? =
            utf8.withContiguousStorageIfAvailable { bytes in
                for index in 0..<bytes.count where needsEscape(bytes[index], mask, backquote) { return index }
                return -1
            } ?? 0
        guard let first = firstEscape, first >= 0 else {
            output.append(text)
            return
        }
        var chunkStart = utf8.startIndex
        var index = utf8.index(utf8.startIndex, offsetBy: first)
        while index != utf8.endIndex {
            let byte = utf8[index]
            if needsEscape(byte, mask, backquote) {
                if chunkStart != index { output.append(contentsOf: text[chunkStart..<index]) }
                output.append(entity(byte))
                chunkStart = utf8.index(after: index)
            }
            utf8.formIndex(after: &index)
        }
        if chunkStart != utf8.endIndex { output.append(contentsOf: text[chunkStart...]) }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, _ mask: UInt64, _ backquote: Bool) -> Bool {
        byte < 64 ? (mask >> byte) & 1 != 0 : (backquote && byte == 0x60)
    }

    private static func entity(_ byte: UInt8) -> String {
        switch byte {
        case 0x26: "&amp;"
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        case 0x22: "&quot;"
        case 0x27: "&#39;"
        case 0x20: "&#32;"
        case 0x09: "&#9;"
        case 0x0A: "&#10;"
        case 0x0C: "&#12;"
        case 0x0D: "&#13;"
        case 0x3D: "&#61;"
        default: "&#96;"
        }
    }

    /// The URL itself when it is safe to put in `href`, `src` and the like, nil otherwise.
    ///
    /// Safe means: http or https, protocol-relative (`//cdn.example.com/…`) or relative (`/p/1`, `p/1`,
    /// `?page=2`, `#top`). Anything else with a scheme is refused (`javascript:`, `data:`, `vbscript:`,
    /// `mailto:`…), and so are look-alikes: mixed case, HTML character references (`jav&#x61;script:`,
    /// `javascript&colon;`), whitespace, tabs, newlines or control characters anywhere before the colon.
    public static func safeURL(_ url: String) -> String? {
        isSafeURL(url) ? url : nil
    }

    /// Whether ``safeURL(_:)`` accepts the URL.
    public static func isSafeURL(_ url: String) -> Bool {
        guard let scheme = URLScheme.leading(url) else { return true }
        return scheme == "http" || scheme == "https"
    }

    /// Whether a value may continue a URL whose scheme is not settled: it must not be able to complete a
    /// scheme, so it has no `:` (or look-alike) before its first `/`, `?` or `#`.
    static func isSafeURLContinuation(_ value: String) -> Bool {
        URLScheme.leading(value) == nil
    }

    /// Whether every candidate URL of a `srcset` list is safe.
    static func isSafeSourceSet(_ value: String) -> Bool {
        for candidate in value.split(separator: ",") {
            let url = candidate.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.map(String.init) ?? ""
            if !isSafeURL(url) { return false }
        }
        return true
    }
}
