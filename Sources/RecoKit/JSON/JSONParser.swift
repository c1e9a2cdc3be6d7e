import Foundation

/// A strict RFC 8259 parser from UTF-8 bytes to ``JSONValue``.
///
/// It reports the first error with the JSON path where it happened and its line and column, limits
/// nesting depth (so hostile input cannot exhaust the stack), and rejects invalid UTF-8.
enum JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512

    static func parse(_ data: Data) throws(PayloadError) -> JSONValue {
        let result: Result<JSONValue, PayloadError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var parser = Parser(bytes: bytes)
            return Result { () throws(PayloadError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    static func parse(_ bytes: [UInt8]) throws(PayloadError) -> JSONValue {
        let result: Result<JSONValue, PayloadError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer)
            return Result { () throws(PayloadError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0
        /// Members of the objects being parsed, innermost last; each object takes its own from the end.
        var memberStack: [(String, JSONValue)] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func parseDocument() throws(PayloadError) -> JSONValue {
            skipWhitespace()
            if offset == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3; skipWhitespace() }
            guard offset < bytes.count else { throw failure(bytes.isEmpty ? "empty document" : "no JSON value, only white space") }
            let value = try parseValue(depth: 0)
            skipWhitespace()
            guard offset == bytes.count else { throw failure("unexpected \(describeByte()) after the end of the JSON value") }
            return value
        }

        mutating func parseValue(depth: Int) throws(PayloadError) -> JSONValue {
            guard offset < bytes.count else { throw failure("unexpected end of input, expected a value") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw failure("unexpected \(describeByte()), expected a value")
            }
        }

        mutating func parseObject(depth: Int) throws(PayloadError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
            offset += 1
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") { offset += 1; return .object([:]) }
            let first = memberStack.count
            defer { memberStack.removeSubrange(first...) }
            while true {
                skipWhitespace()
                guard offset < bytes.count else { throw failure("unexpected end of input, expected a key or '}'") }
                guard bytes[offset] == UInt8(ascii: "\"") else { throw failure("unexpected \(describeByte()), expected a key in double quotes") }
                let key = try parseString()
                skipWhitespace()
                guard offset < bytes.count else { throw failure("unexpected end of input, expected ':' after key \"\(key)\"") }
                guard bytes[offset] == UInt8(ascii: ":") else { throw failure("unexpected \(describeByte()), expected ':' after key \"\(key)\"") }
                offset += 1
                skipWhitespace()
                let value: JSONValue
                do { value = try parseValue(depth: depth) } catch { throw error.nested(under: [.key(key)]) }
                memberStack.append((key, value))
                skipWhitespace()
                guard offset < bytes.count else { throw failure("unexpected end of input, expected ',' or '}'") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                if bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    var members = [String: JSONValue](minimumCapacity: memberStack.count - first)
                    for index in first..<memberStack.count { members[memberStack[index].0] = memberStack[index].1 }
                    return .object(members)
                }
                throw failure("unexpected \(describeByte()), expected ',' or '}'")
            }
        }

        mutating func parseArray(depth: Int) throws(PayloadError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
            offset += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(elements) }
            while true {
                skipWhitespace()
                let value: JSONValue
                do { value = try parseValue(depth: depth) } catch { throw error.nested(under: [.index(elements.count)]) }
                elements.append(value)
                skipWhitespace()
                guard offset < bytes.count else { throw failure("unexpected end of input, expected ',' or ']'") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                if bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(elements) }
                throw failure("unexpected \(describeByte()), expected ',' or ']'")
            }
        }

        mutating func parseString() throws(PayloadError) -> String {
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
                        throw failure("invalid UTF-8 in a string")
                    }
                    return text
                }
                ascii = ascii && byte < 0x80
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw failure("unescaped control character U+\(String(format: "%04X", byte)) in a string") }
                offset += 1
            }
            guard offset < bytes.count else { offset = start; throw failure("unterminated string") }
            // Slow path: decode escapes into a byte buffer.
            var buffer = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<offset]))
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    offset += 1
                    guard let text = String(validating: buffer, as: UTF8.self) else { offset = start; throw failure("invalid UTF-8 in a string") }
                    return text
                }
                if byte < 0x20 { throw failure("unescaped control character U+\(String(format: "%04X", byte)) in a string") }
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
                            throw failure("lone high surrogate \\u\(String(format: "%04X", scalar)) in a string")
                        }
                        offset += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("invalid low surrogate \\u\(String(format: "%04X", low)) in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw failure("lone low surrogate \\u\(String(format: "%04X", scalar)) in a string")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid escape \\u\(String(format: "%04X", scalar))") }
                    buffer.append(contentsOf: UTF8.encode(unicode)!)
                default:
                    offset -= 1
                    throw failure("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            }
            offset = start
            throw failure("unterminated string")
        }

        mutating func parseHex4() throws(PayloadError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw failure("unexpected end of input in a \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw failure("invalid hex digit \(describeByte()) in a \\u escape")
                }
                value = value << 4 | digit
                offset += 1
            }
            return value
        }

        mutating func parseNumber() throws(PayloadError) -> JSONNumber {
            let start = offset
            while offset < bytes.count {
                switch bytes[offset] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
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
                throw failure("invalid number '\(text)'")
            }
            return JSONNumber(uncheckedText: String(decoding: slice, as: UTF8.self))
        }

        mutating func expectLiteral(_ literal: String) throws(PayloadError) {
            let expected = Array(literal.utf8)
            let count = expected.count
            for index in 0..<count {
                guard offset + index < bytes.count else { offset += index; throw failure("unexpected end of input in '\(literal)'") }
                guard bytes[offset + index] == expected[index] else { offset += index; throw failure("unexpected \(describeByte()), expected '\(literal)'") }
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

        func failure(_ message: String) -> PayloadError {
            var line = 1
            var column = 1
            let end = Swift.min(offset, bytes.count)
            for index in 0..<end {
                if bytes[index] == 0x0A { line += 1; column = 1 } else if bytes[index] & 0xC0 != 0x80 { column += 1 }
            }
            return .invalidJSON(message, at: .root, line: line, column: column)
        }
    }
}
