import RecoKit

/// How the renderer writes a value it found: text as it is, numbers as written, yes/no as `true`/`false`,
/// nothing for null, lists and objects; then escaped (and for URLs checked) by the tag's ``OutputRule``.
extension Renderer {
    mutating func write(_ value: RenderValue, _ rule: OutputRule) {
        switch value {
        case .template(let value): write(value, rule)
        case .json(let value): write(value, rule)
        }
    }

    @inline(__always)
    mutating func write(_ value: TemplateValue, _ rule: OutputRule) {
        switch value {
        case .string(let string): write(string, rule)
        case .number(let number): write(number.text, rule)
        case .bool(let flag): write(flag ? "true" : "false", rule)
        case .null, .list, .context: return
        }
    }

    @inline(__always)
    mutating func write(_ value: JSONValue, _ rule: OutputRule) {
        switch value {
        case .string(let string): write(string, rule)
        case .number(let number): write(number.text, rule)
        case .bool(let flag): write(flag ? "true" : "false", rule)
        case .null, .array, .object: return
        }
    }

    @inline(__always)
    mutating func write(_ text: String, _ rule: OutputRule) {
        switch rule {
        case .raw: output.write(text)
        case .text: output.write(escaping: text, unquoted: false)
        case .unquoted: output.write(escaping: text, unquoted: true)
        case .script: output.write { HTMLEscaping.appendScript(text, to: &$0) }
        case .css(let unquoted): if CSSValue.isPlain(text) { output.write(escaping: text, unquoted: unquoted) }
        case .document(let unquoted): output.write(escaping: HTMLEscaping.escape(text), unquoted: unquoted)
        case .url(let part, let unquoted):
            // Each branch writes `text` itself, not a copy of it.
            switch part {
            case .start:
                if HTMLEscaping.isSafeURL(text) {
                    writeURL(text, unquoted: unquoted)
                } else {
                    writeURL(HTMLEscaping.harmlessURL, unquoted: unquoted)
                }
            case .continuation:
                if HTMLEscaping.isSafeURLContinuation(text) { writeURL(text, unquoted: unquoted) }
            case .sourceSet:
                if HTMLEscaping.isSafeSourceSet(text) {
                    writeURL(text, unquoted: unquoted)
                } else {
                    writeURL(HTMLEscaping.harmlessURL, unquoted: unquoted)
                }
            }
        }
    }

    /// Writes a checked URL, escaped for a quoted or unquoted attribute value.
    @inline(__always)
    private mutating func writeURL(_ url: String, unquoted: Bool) {
        output.write(escaping: url, unquoted: unquoted)
    }
}
