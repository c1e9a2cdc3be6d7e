import Foundation

/// Any JSON value, kept whole: a vendor's raw product with every field it sent.
///
/// Numbers keep their literal text (see ``JSONNumber``), so prices convert to `Decimal` exactly.
/// Objects are unordered, as JSON objects are.
///
/// ```swift
/// let product = try JSONValue(parsing: #"{"productId":"p1","params":{"color":"red"}}"#)
/// product[path: "params.color"]?.stringValue   // "red"
/// ```
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a complete JSON document.
    /// - Parameter limits: the bounds on size, depth and lengths (``JSONLimits/default`` unless given).
    /// - Throws: ``PayloadError`` naming what was wrong, its JSON path, line and column: `invalidJSON`
    ///   for malformed text, `limitExceeded` for a document beyond `limits`.
    public init(parsing text: String, limits: JSONLimits = .default) throws(PayloadError) {
        self = try JSONParser.parse(Array(text.utf8), limits: limits)
    }

    /// Parses a complete JSON document from bytes (UTF-8).
    /// - Parameter limits: the bounds on size, depth and lengths (``JSONLimits/default`` unless given).
    /// - Throws: ``PayloadError`` naming what was wrong, its JSON path, line and column: `invalidJSON`
    ///   for malformed bytes, `limitExceeded` for a document beyond `limits`.
    public init(parsing data: Data, limits: JSONLimits = .default) throws(PayloadError) {
        self = try JSONParser.parse(data, limits: limits)
    }

    /// The value's kind in words, for error messages: "a string", "an object", ….
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The number, when this is a number.
    public var numberValue: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// A scalar as text: a string as is, a number as written, a boolean as `true`/`false`; nil otherwise.
    public var scalarText: String? {
        switch self {
        case .string(let value): value
        case .number(let value): value.text
        case .bool(let value): value ? "true" : "false"
        default: nil
        }
    }

    /// A number, or a string that holds a JSON number (vendors send prices both ways), as a `Decimal`.
    public var decimalValue: Decimal? {
        switch self {
        case .number(let value): value.decimal
        case .string(let text): JSONNumber(text: text.trimmingCharacters(in: .whitespaces))?.decimal
        default: nil
        }
    }

    /// A number, or a string that holds a whole number (`"8"`), as an `Int`.
    public var intValue: Int? {
        switch self {
        case .number(let value): value.int
        case .string(let text): JSONNumber(text: Self.trimmingWhitespace(text))?.int
        default: nil
        }
    }

    /// `text.trimmingCharacters(in: .whitespaces)`, without the call (a few thousand instructions) when
    /// the text starts and ends with a printable ASCII character, which no trimming removes.
    private static func trimmingWhitespace(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The member of an object with this key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The element of an array at this index, nil when out of range.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    /// The value at a dotted path of object keys (`"params.color"`). A key that itself contains a dot is
    /// found too: the longest matching key is tried first.
    public subscript(path dottedPath: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        if let direct = members[dottedPath] { return direct }
        var separator = dottedPath.lastIndex(of: ".")
        while let dot = separator {
            let head = String(dottedPath[..<dot])
            if let value = members[head] { return value[path: String(dottedPath[dottedPath.index(after: dot)...])] }
            separator = dottedPath[..<dot].lastIndex(of: ".")
        }
        return nil
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: Codable {
    /// Decodes any JSON value from any decoder (numbers through `Decimal` where the decoder allows).
    public init(from decoder: any Decoder) throws {
        if let direct = decoder as? JSONValueDecoder {
            self = direct.value
            return
        }
        if let tape = decoder as? JSONTapeDecoder {
            self = tape.tape.value(tape.index)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if let int = Int(value.text) { try container.encode(int) } else { try container.encode(value.decimal ?? 0) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Hashes the value's kind and scalar content, and for an array or object its elements' or members'
    /// kinds and scalars one level down: equal values hash equally, and hashing never recurses deeper,
    /// so a deeply nested value costs no stack.
    public func hash(into hasher: inout Hasher) {
        hashOneLevel(into: &hasher)
        switch self {
        case .array(let elements):
            for element in elements { element.hashOneLevel(into: &hasher) }
        case .object(let members):
            var sum = 0
            for (key, value) in members {
                var member = Hasher()
                member.combine(key)
                value.hashOneLevel(into: &member)
                sum &+= member.finalize()
            }
            hasher.combine(sum)
        default:
            break
        }
    }

    private func hashOneLevel(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(1); hasher.combine(flag)
        case .number(let number): hasher.combine(2); hasher.combine(number)
        case .string(let text): hasher.combine(3); hasher.combine(text)
        case .array(let elements): hasher.combine(4); hasher.combine(elements.count)
        case .object(let members): hasher.combine(5); hasher.combine(members.count)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON with sorted keys.
    public var description: String { JSONWriter.string(self) }
}
