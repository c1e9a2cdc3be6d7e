/// Writes ``JSONValue``s as JSON text: compact or indented, object keys sorted so output is stable.
public enum JSONWriter {
    /// How the text is laid out.
    public enum Style: Sendable {
        /// No white space.
        case compact
        /// Two spaces of indentation per level.
        case pretty
    }

    /// The value as JSON text.
    public static func string(_ value: JSONValue, style: Style = .compact) -> String {
        var output = ""
        output.reserveCapacity(256)
        write(value, to: &output, style: style, indent: 0)
        return output
    }

    /// Appends the value as JSON text to `output`.
    public static func write(_ value: JSONValue, to output: inout String, style: Style = .compact, indent: Int = 0) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += number.text
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            if elements.isEmpty { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(&output, style: style, indent: indent + 1)
                write(element, to: &output, style: style, indent: indent + 1)
            }
            newline(&output, style: style, indent: indent)
            output += "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                newline(&output, style: style, indent: indent + 1)
                writeString(key, to: &output)
                output += style == .pretty ? ": " : ":"
                write(members[key]!, to: &output, style: style, indent: indent + 1)
            }
            newline(&output, style: style, indent: indent)
            output += "}"
        }
    }

    /// Appends a JSON string literal (with quotes) for `text`.
    public static func writeString(_ text: String, to output: inout String) {
        output += "\""
        var needsEscape = false
        for byte in text.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            needsEscape = true
            break
        }
        if !needsEscape {
            output += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    private static func newline(_ output: inout String, style: Style, indent: Int) {
        guard style == .pretty else { return }
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }
}
