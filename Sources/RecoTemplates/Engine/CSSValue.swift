/// The values a template may put into CSS (a `style` attribute or a `<style>` element).
///
/// CSS has too many ways to load or run something (`url(`, `expression(`, `@import`, `image-set(`,
/// escapes such as `\75 rl(`, comments and strings that swallow what follows) for an escaping to keep up
/// with every browser's reading. So instead of escaping, the engine writes a value into CSS only when it is
/// plain: ASCII letters and digits, space, `#`, `.`, `,`, `%`, `+`, `-`, `_`, and letters or digits beyond
/// ASCII. That is enough for colours (`#0b57d0`, `rebeccapurple`), lengths (`12.5px`, `40%`), names and
/// class names, and it cannot call a function (no `(`), end a declaration or a rule (no `;`, `{`, `}`),
/// name a scheme (no `:`), escape (no `\`), open a string or a comment (no quotes, `/`, `*`), or end the
/// attribute or the `<style>` element (no `<`, `>`, `&`). Anything else is left out; an image belongs in an
/// `<img src>`, whose URL the engine checks.
public enum CSSValue {
    /// Whether the value may be written into CSS.
    ///
    /// ```swift
    /// CSSValue.isPlain("#0b57d0")                 // true
    /// CSSValue.isPlain("url(javascript:alert(1))") // false
    /// ```
    public static func isPlain(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            case 0x20, 0x23, 0x2E, 0x2C, 0x25, 0x2B, 0x2D, 0x5F: true
            case 0x80...:
                scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            default: false
            }
        }
    }
}
