import Foundation

/// A strict RFC 8259 parser from UTF-8 bytes to ``JSONValue``.
///
/// It reports the first error with the JSON path where it happened and its line and column, rejects
/// invalid UTF-8, and holds the input to ``JSONLimits`` (document size, nesting depth, string and number
/// lengths). It keeps open arrays and objects on a stack of its own instead of recursing, so no depth
/// can overflow the thread's stack.
enum JSONParser {
    static func parse(_ data: Data, limits: JSONLimits) throws(PayloadError) -> JSONValue {
        let result: Result<JSONValue, PayloadError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var parser = Parser(bytes: bytes, limits: limits)
            return Result { () throws(PayloadError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    static func parse(_ bytes: [UInt8], limits: JSONLimits) throws(PayloadError) -> JSONValue {
        let result: Result<JSONValue, PayloadError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, limits: limits)
            return Result { () throws(PayloadError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    /// An array or object being parsed: where its elements or members start in the shared stacks, and
    /// for an object the key whose value is being parsed.
    private struct OpenContainer {
        let isObject: Bool
        let first: Int
        var key: String
        /// For an array, how many elements it has so far (the index of the one being parsed).
        var count = 0
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: JSONLimits
        var offset = 0
        /// The arrays and objects open around the current value, outermost first: the parser's own stack,
        /// so that nesting costs heap, never the thread's stack.
        var open: [OpenContainer] = []
        /// Elements of the arrays being parsed, innermost last; each array takes its own from the end.
        var elementStack: [JSONValue] = []
        /// Members of the objects being parsed, innermost last; each object takes its own from the end.
        var memberStack: [(String, JSONValue)] = []
        /// Whether the string being read is a value (its errors are placed at its own path) or a key.
        var stringIsValue = true

        init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
            self.bytes = bytes
            self.limits = limits
        }

        mutating func parseDocument() throws(PayloadError) -> JSONValue {
            guard bytes.count <= limits.maximumInputBytes else {
                throw limit("a document of \(bytes.count) bytes, more than \(limits.maximumInputBytes) (JSONLimits.maximumInputBytes)", inValue: false)
            }
            skipWhitespace()
            if offset == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3; skipWhitespace() }
            guard offset < bytes.count else { throw failure(bytes.isEmpty ? "empty document" : "no JSON value, only white space") }
            let value = try parseValue()
            skipWhitespace()
            guard offset == bytes.count else { throw failure("unexpected \(describeByte()) after the end of the JSON value") }
            return value
        }

        /// Parses one value and everything nested in it, without recursion: opening an array or object
        /// pushes it on `open`; each finished value goes to the innermost open container, which closes
        /// when its bracket comes.
        mutating func parseValue() throws(PayloadError) -> JSONValue {
            let base = open.count
            while true {
                skipWhitespace()
                guard offset < bytes.count else { throw failure("unexpected end of input, expected a value", inValue: true) }
                var value: JSONValue
                switch bytes[offset] {
                case UInt8(ascii: "{"):
                    try checkDepth()
                    offset += 1
                    skipWhitespace()
                    if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                        offset += 1
                        value = .object([:])
                    } else {
                        open.append(OpenContainer(isObject: true, first: memberStack.count, key: ""))
                        open[open.count - 1].key = try parseKey()
                        continue
                    }
                case UInt8(ascii: "["):
                    try checkDepth()
                    offset += 1
                    skipWhitespace()
                    if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                        offset += 1
                        value = .array([])
                    } else {
                        open.append(OpenContainer(isObject: false, first: elementStack.count, key: ""))
                        continue
                    }
                case UInt8(ascii: "\""): value = .string(try parseString(inValue: true))
                case UInt8(ascii: "t"): try expectLiteral("true"); value = .bool(true)
                case UInt8(ascii: "f"): try expectLiteral("false"); value = .bool(false)
                case UInt8(ascii: "n"): try expectLiteral("null"); value = .null
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
                default: throw failure("unexpected \(describeByte()), expected a value", inValue: true)
                }
                // Hand the value to the containers it completes, innermost first.
                while open.count > base {
                    let container = open[open.count - 1]
                    if container.isObject {
                        memberStack.append((container.key, value))
                    } else {
                        elementStack.append(value)
                        open[open.count - 1].count += 1
                    }
                    skipWhitespace()
                    let close = container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    let expected = container.isObject ? "',' or '}'" : "',' or ']'"
                    guard offset < bytes.count else { throw failure("unexpected end of input, expected \(expected)") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        if container.isObject { open[open.count - 1].key = try parseKey() }
                        break
                    }
                    guard bytes[offset] == close else { throw failure("unexpected \(describeByte()), expected \(expected)") }
                    offset += 1
                    open.removeLast()
                    if container.isObject {
                        var members = [String: JSONValue](minimumCapacity: memberStack.count - container.first)
                        for index in container.first..<memberStack.count { members[memberStack[index].0] = memberStack[index].1 }
                        memberStack.removeSubrange(container.first...)
                        value = .object(members)
                    } else {
                        value = .array(Array(elementStack[container.first...]))
                        elementStack.removeSubrange(container.first...)
                    }
                }
                if open.count == base { return value }
            }
        }

        /// Reads `"key":` inside an object, leaving the offset at the value.
        mutating func parseKey() throws(PayloadError) -> String {
            skipWhitespace()
            guard offset < bytes.count else { throw failure("unexpected end of input, expected a key or '}'") }
            guard bytes[offset] == UInt8(ascii: "\"") else { throw failure("unexpected \(describeByte()), expected a key in double quotes") }
            let key = try parseString(inValue: false)
            skipWhitespace()
            guard offset < bytes.count else { throw failure("unexpected end of input, expected ':' after key \"\(key)\"") }
            guard bytes[offset] == UInt8(ascii: ":") else { throw failure("unexpected \(describeByte()), expected ':' after key \"\(key)\"") }
            offset += 1
            return key
        }

        func checkDepth() throws(PayloadError) {
            guard open.count < limits.maximumDepth else {
                throw limit("nesting deeper than \(limits.maximumDepth) levels (JSONLimits.maximumDepth)", inValue: true)
            }
        }

        mutating func parseString(inValue: Bool) throws(PayloadError) -> String {
            stringIsValue = inValue
            let start = offset
            offset += 1
            let contentStart = offset
            // Fast path: no escapes. ASCII text needs no validation (the generic validator costs about a
            // thousand instructions a string); anything else is validated strictly.
            var ascii = true
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<offset])
                    offset += 1
                    if ascii { return String(decoding: slice, as: UTF8.self) }
                    guard let text = String(validating: slice, as: UTF8.self) else {
                        offset = start
                        throw stringFailure("invalid UTF-8 in a string")
                    }
                    return text
                }
                ascii = ascii && byte < 0x80
                if byte == UInt8(ascii: "\\") { break }
                if offset - contentStart >= limits.maximumStringBytes { try stringTooLong(start) }
                if byte < 0x20 { throw stringFailure("unescaped control character U+\(String(format: "%04X", byte)) in a string") }
                offset += 1
            }
            guard offset < bytes.count else { offset = start; throw stringFailure("unterminated string") }
            // Slow path: decode escapes into a byte buffer.
            var buffer = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<offset]))
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    offset += 1
                    guard let text = String(validating: buffer, as: UTF8.self) else { offset = start; throw stringFailure("invalid UTF-8 in a string") }
                    return text
                }
                if byte < 0x20 { throw stringFailure("unescaped control character U+\(String(format: "%04X", byte)) in a string") }
                if offset - contentStart >= limits.maximumStringBytes { try stringTooLong(start) }
                if byte != UInt8(ascii: "\\") { buffer.append(byte); offset += 1; continue }
                offset += 1
                guard offset < bytes.count else { break }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                            throw stringFailure("lone high surrogate \\u\(String(format: "%04X", scalar)) in a string")
                        }
                        offset += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw stringFailure("invalid low surrogate \\u\(String(format: "%04X", low)) in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw stringFailure("lone low surrogate \\u\(String(format: "%04X", scalar)) in a string")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw stringFailure("invalid escape \\u\(String(format: "%04X", scalar))") }
                    buffer.append(contentsOf: UTF8.encode(unicode)!)
                default:
                    offset -= 1
                    throw stringFailure("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            }
            offset = start
            throw stringFailure("unterminated string")
        }

        mutating func parseHex4() throws(PayloadError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw stringFailure("unexpected end of input in a \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw stringFailure("invalid hex digit \(describeByte()) in a \\u escape")
                }
                value = value << 4 | digit
                offset += 1
            }
            return value
        }

        /// Stops at a string longer than the limit, pointing at its opening quote.
        mutating func stringTooLong(_ start: Int) throws(PayloadError) {
            offset = start
            throw limit("a string longer than \(limits.maximumStringBytes) bytes (JSONLimits.maximumStringBytes)", inValue: stringIsValue)
        }

        mutating func parseNumber() throws(PayloadError) -> JSONNumber {
            let start = offset
            while offset < bytes.count {
                switch bytes[offset] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    if offset - start >= limits.maximumNumberLength {
                        offset = start
                        throw limit("a number longer than \(limits.maximumNumberLength) bytes (JSONLimits.maximumNumberLength)", inValue: true)
                    }
                    offset += 1
                    continue
                default: break
                }
                break
            }
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<offset])
            guard JSONNumber.isValidLiteral(slice) else {
                let text = String(decoding: slice, as: UTF8.self)
                offset = start
                throw failure("invalid number '\(text)'", inValue: true)
            }
            return JSONNumber(uncheckedText: String(decoding: slice, as: UTF8.self))
        }

        mutating func expectLiteral(_ literal: String) throws(PayloadError) {
            let expected = Array(literal.utf8)
            let count = expected.count
            for index in 0..<count {
                guard offset + index < bytes.count else { offset += index; throw failure("unexpected end of input in '\(literal)'", inValue: true) }
                guard bytes[offset + index] == expected[index] else { offset += index; throw failure("unexpected \(describeByte()), expected '\(literal)'", inValue: true) }
            }
            offset += count
        }

        mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x0A, 0x0D, 0x09: offset += 1
                default: return
                }
            }
        }

        func describeByte() -> String {
            guard offset < bytes.count else { return "end of input" }
            let byte = bytes[offset]
            switch byte {
            case 0x0A, 0x0D: return "line break"
            case 0x20: return "space"
            case 0x09: return "tab"
            default: break
            }
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x\(String(format: "%02X", byte))"
        }

        /// The error for malformed JSON at the current offset. `inValue`: the error is in the value being
        /// parsed (its path ends with the key or index of that value), not in the syntax of the container
        /// around it (the container's own path).
        func failure(_ message: String, inValue: Bool = false) -> PayloadError {
            let (line, column) = position()
            return .invalidJSON(message, at: path(inValue: inValue), line: line, column: column)
        }

        func stringFailure(_ message: String) -> PayloadError { failure(message, inValue: stringIsValue) }

        /// The error for a limit reached at the current offset.
        func limit(_ message: String, inValue: Bool) -> PayloadError {
            let (line, column) = position()
            return .limitExceeded(message, at: path(inValue: inValue), line: line, column: column)
        }

        func path(inValue: Bool) -> JSONPath {
            let count = inValue ? open.count : Swift.max(open.count - 1, 0)
            return JSONPath(components: open.prefix(count).map { container in container.isObject ? .key(container.key) : .index(container.count) })
        }

        /// The 1-based line and column of the current offset (columns count characters, not bytes).
        func position() -> (line: Int, column: Int) {
            var line = 1
            var column = 1
            let end = Swift.min(offset, bytes.count)
            for index in 0..<end {
                if bytes[index] == 0x0A { line += 1; column = 1 } else if bytes[index] & 0xC0 != 0x80 { column += 1 }
            }
            return (line, column)
        }
    }
}
