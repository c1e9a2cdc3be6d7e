import Foundation

extension JSONValue {
    /// Decodes a caller's `Decodable` model from this value, leniently where vendors disagree.
    ///
    /// Compared with `JSONDecoder`, it accepts:
    /// - a number where a `String` is wanted (`"productId": 123` gives `"123"`, as written);
    /// - a numeric string where a number is wanted (`"price": "349.99"`), for every integer and floating
    ///   point type and for `Decimal`;
    /// - `Decimal` exactly from the number's text (`349.99` stays 349.99);
    /// - `"true"`/`"false"` and `0`/`1` where a `Bool` is wanted;
    /// - a single value where an array is wanted (`"category": "Shoes"` gives `["Shoes"]`);
    /// - a `Date` from an ISO 8601 string or from epoch seconds or milliseconds (a number above 10¹¹ is
    ///   taken as milliseconds, as Segmentify's `lastUpdateTime` is).
    ///
    /// Everything else is strict: a value that cannot become the wanted type is an error that names its
    /// JSON path, never a silent `nil`.
    ///
    /// ```swift
    /// struct Shoe: Decodable { let productId: String; let price: Decimal }
    /// let shoe = try JSONValue(parsing: #"{"productId":"s1","price":"349.99"}"#).decode(Shoe.self)
    /// ```
    /// - Throws: `DecodingError` with the coding path where decoding failed; ``ProductFailure`` turns it
    ///   into a JSON path and a reason.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder(value: self, parentPath: [], lastKey: nil).decodeValue(type)
    }
}

/// The `Decoder` behind ``JSONValue/decode(_:)``.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    private let parentPath: [any CodingKey]
    private let lastKey: (any CodingKey)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var codingPath: [any CodingKey] {
        guard let lastKey else { return parentPath }
        return parentPath + [lastKey]
    }

    init(value: JSONValue, parentPath: [any CodingKey], lastKey: (any CodingKey)?) {
        self.value = value
        self.parentPath = parentPath
        self.lastKey = lastKey
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(value.kindDescription)"))
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements): return UnkeyedContainer(elements: elements, codingPath: codingPath)
        case .null:
            throw DecodingError.valueNotFound([Any].self, .init(codingPath: codingPath, debugDescription: "expected an array, found null"))
        default: return UnkeyedContainer(elements: [value], codingPath: codingPath)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    // MARK: Scalars

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return try decodeString() as! T }
        if T.self == Decimal.self { return try decodeDecimal() as! T }
        if T.self == Double.self { return try decodeFloatingPoint(Double.self) as! T }
        if T.self == Int.self { return try decodeInteger(Int.self) as! T }
        if T.self == Bool.self { return try decodeBool() as! T }
        if T.self == URL.self { return try decodeURL() as! T }
        if T.self == Date.self { return try decodeDate() as! T }
        if T.self == JSONValue.self { return value as! T }
        if case .null = value, !(T.self is any ExpressibleByNilLiteral.Type) {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath, debugDescription: "expected \(T.self), found null"))
        }
        return try T(from: self)
    }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindDescription)"))
    }

    func decodeString() throws -> String {
        switch value {
        case .string(let text): return text
        case .number(let number): return number.text
        case .null: throw DecodingError.valueNotFound(String.self, .init(codingPath: codingPath, debugDescription: "expected a string, found null"))
        default: throw mismatch("a string")
        }
    }

    func decodeBool() throws -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .string("true"), .string("1"): return true
        case .string("false"), .string("0"): return false
        case .number(let number) where number.int == 0 || number.int == 1: return number.int == 1
        case .null: throw DecodingError.valueNotFound(Bool.self, .init(codingPath: codingPath, debugDescription: "expected a boolean, found null"))
        default: throw mismatch("a boolean")
        }
    }

    func numberText(_ expected: String) throws -> String {
        switch value {
        case .number(let number): return number.text
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard JSONNumber(text: trimmed) != nil else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "expected \(expected), found the string \"\(text)\""))
            }
            return trimmed
        case .null: throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found null"))
        default: throw mismatch(expected)
        }
    }

    func decodeDecimal() throws -> Decimal {
        let text = try numberText("a number")
        guard let decimal = JSONNumber(uncheckedText: text).decimal else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the number \(text) does not fit a Decimal"))
        }
        return decimal
    }

    func decodeFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type) throws -> F {
        let text = try numberText("a number")
        guard let number = F(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the number \(text) does not fit \(F.self)"))
        }
        return number
    }

    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let text = try numberText("a whole number")
        if let exact = I(text) { return exact }
        if let double = Double(text), double == double.rounded(), let exact = I(exactly: double) { return exact }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the number \(text) is not a whole number that fits \(I.self)"))
    }

    func decodeURL() throws -> URL {
        let text = try decodeString().trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\"\(text)\" is not a valid URL"))
        }
        return url
    }

    func decodeDate() throws -> Date {
        switch value {
        case .number(let number):
            guard let double = number.double else { throw mismatch("a date") }
            return Date(timeIntervalSince1970: abs(double) > 1e11 ? double / 1000 : double)
        case .string(let text):
            if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
            if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
            if let number = JSONNumber(text: text), let double = number.double {
                return Date(timeIntervalSince1970: abs(double) > 1e11 ? double / 1000 : double)
            }
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\"\(text)\" is not an ISO 8601 date or an epoch time"))
        case .null: throw DecodingError.valueNotFound(Date.self, .init(codingPath: codingPath, debugDescription: "expected a date, found null"))
        default: throw mismatch("a date")
        }
    }
}

// MARK: - Containers

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue!)" }
    init(_ index: Int) { self.intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func child(_ key: Key) throws -> JSONValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing required key \"\(key.stringValue)\""))
        }
        return JSONValueDecoder(value: value, parentPath: codingPath, lastKey: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = members[key.stringValue] else { return true }
        return value.isNull
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decodeBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decodeString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decodeFloatingPoint(Double.self) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decodeFloatingPoint(Float.self) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decodeInteger(Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = members[key.stringValue], !value.isNull else { return nil }
        if case .string(let text) = value { return text }
        return try JSONValueDecoder(value: value, parentPath: codingPath, lastKey: key).decodeString()
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue], !value.isNull else { return nil }
        return try JSONValueDecoder(value: value, parentPath: codingPath, lastKey: key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoder(value: .object(members), parentPath: codingPath, lastKey: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoder(value: members[key.stringValue] ?? .null, parentPath: codingPath, lastKey: key)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next() throws -> JSONValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "the array has no element \(currentIndex)"))
        }
        defer { currentIndex += 1 }
        return JSONValueDecoder(value: elements[currentIndex], parentPath: codingPath, lastKey: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if elements[currentIndex].isNull { currentIndex += 1; return true }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: JSONValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeFloatingPoint(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloatingPoint(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
