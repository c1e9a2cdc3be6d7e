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
    ///
    /// It keeps its own stack of the arrays and objects being written (no recursion), so a value of any
    /// depth is written on a thread of any stack size.
    public static func write(_ value: JSONValue, to output: inout String, style: Style = .compact, indent: Int = 0) {
        var open: [OpenContainer] = []
        var next: JSONValue? = value
        while true {
            if let current = next {
                next = nil
                switch current {
                case .null: output += "null"
                case .bool(let flag): output += flag ? "true" : "false"
                case .number(let number): output += number.text
                case .string(let text): writeString(text, to: &output)
                case .array(let elements):
                    if elements.isEmpty { output += "[]" } else { output += "["; open.append(OpenContainer(elements: elements)) }
                case .object(let members):
                    if members.isEmpty { output += "{}" } else { output += "{"; open.append(OpenContainer(members: members)) }
                }
            }
            guard let container = open.last else { return }
            let level = indent + open.count
            if container.index < container.count {
                if container.index > 0 { output += "," }
                newline(&output, style: style, indent: level)
                if container.isObject {
                    let key = container.keys[container.index]
                    writeString(key, to: &output)
                    output += style == .pretty ? ": " : ":"
                    next = container.members[key]!
                } else {
                    next = container.elements[container.index]
                }
                open[open.count - 1].index += 1
            } else {
                newline(&output, style: style, indent: level - 1)
                output += container.isObject ? "}" : "]"
                open.removeLast()
            }
        }
    }

    /// An array or object being written, and how many of its elements or members are written.
    private struct OpenContainer {
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        var keys: [String] = []
        let isObject: Bool
        var index = 0
        var count: Int { isObject ? keys.count : elements.count }

        init(elements: [JSONValue]) {
            self.elements = elements
            isObject = false
        }

        init(members: [String: JSONValue]) {
            self.members = members
            keys = members.keys.sorted()
            isObject = true
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
