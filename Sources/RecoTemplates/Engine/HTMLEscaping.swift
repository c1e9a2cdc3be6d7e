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
    static let textMask: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E
    /// Also escaped in unquoted attribute values and inside tags: whitespace, `=`, and (below 64) nothing else.
    static let unquotedMask: UInt64 = textMask | 1 << 0x20 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0C | 1 << 0x0D | 1 << 0x3D

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
        let found: Int? =
            utf8.withContiguousStorageIfAvailable { bytes in
                firstEscape(in: bytes, from: 0, mask: mask, backquote: backquote) ?? -1
            } ?? 0
        guard let first = found, first >= 0 else {
            output.append(text)
            return
        }
        output.append(escaped(text, from: first, mask: mask, backquote: backquote))
    }

    /// The text with entities in place, built in one buffer of the exact size.
    private static func escaped(_ text: String, from first: Int, mask: UInt64, backquote: Bool) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var length = bytes.count
            for index in first..<bytes.count where needsEscape(bytes[index], mask, backquote) {
                length += packedEntity(bytes[index]).count - 1
            }
            return String(unsafeUninitializedCapacity: length) { buffer in
                var written = 0
                if first > 0 {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<first]).initialize(from: bytes[0..<first])
                    written = first
                }
                for index in first..<bytes.count {
                    let byte = bytes[index]
                    if needsEscape(byte, mask, backquote) {
                        var (packed, count) = packedEntity(byte)
                        for _ in 0..<count {
                            buffer[written] = UInt8(truncatingIfNeeded: packed)
                            packed >>= 8
                            written += 1
                        }
                    } else {
                        buffer[written] = byte
                        written += 1
                    }
                }
                return written
            }
        }
    }

    /// Whether a byte becomes an entity under `mask` (bytes below 64) and, if `backquote`, `` ` ``.
    @inline(__always)
    static func needsEscape(_ byte: UInt8, _ mask: UInt64, _ backquote: Bool) -> Bool {
        byte < 64 ? (mask >> byte) & 1 != 0 : (backquote && byte == 0x60)
    }

    /// The entity for a byte, its bytes packed little-endian in an integer, and its length.
    @inline(__always)
    static func packedEntity(_ byte: UInt8) -> (bytes: UInt64, count: Int) {
        switch byte {
        case 0x26: (pack("&amp;"), 5)
        case 0x3C: (pack("&lt;"), 4)
        case 0x3E: (pack("&gt;"), 4)
        case 0x22: (pack("&quot;"), 6)
        case 0x27: (pack("&#39;"), 5)
        case 0x20: (pack("&#32;"), 5)
        case 0x09: (pack("&#9;"), 4)
        case 0x0A: (pack("&#10;"), 5)
        case 0x0C: (pack("&#12;"), 5)
        case 0x0D: (pack("&#13;"), 5)
        case 0x3D: (pack("&#61;"), 5)
        default: (pack("&#96;"), 5)
        }
    }

    @inline(__always)
    private static func pack(_ entity: StaticString) -> UInt64 {
        var packed: UInt64 = 0
        let pointer = entity.utf8Start
        for index in (0..<entity.utf8CodeUnitCount).reversed() { packed = packed << 8 | UInt64(pointer[index]) }
        return packed
    }

    /// Appends the text for a JavaScript context inside HTML (`<script>` or an `onclick` attribute): letters,
    /// digits, space, `_`, `,`, `.` and `-` stay; everything else becomes `\uXXXX` (UTF-16), which is safe
    /// inside a JavaScript string literal and cannot end the script or the attribute.
    public static func appendScript(_ text: String, to output: inout String) {
        let hex: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        for unit in text.utf16 {
            switch unit {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x20, 0x5F, 0x2C, 0x2E, 0x2D:
                output.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                output.append("\\u")
                for shift in stride(from: 12, through: 0, by: -4) { output.append(hex[Int(unit >> UInt16(shift)) & 0xF]) }
            }
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
        URLScheme.isWebOrRelative(url)
    }

    /// Whether a value may continue a URL whose scheme is not settled: it must not be able to complete a
    /// scheme, so it has no `:` (or look-alike) before its first `/`, `?` or `#`.
    static func isSafeURLContinuation(_ value: String) -> Bool {
        URLScheme.leading(value) == nil
    }

    /// Whether every candidate of a `srcset` list is safe (each is checked whole, descriptor included, so
    /// whitespace cannot hide a scheme).
    static func isSafeSourceSet(_ value: String) -> Bool {
        value.split(separator: ",").allSatisfy { isSafeURL(String($0)) }
    }
}
