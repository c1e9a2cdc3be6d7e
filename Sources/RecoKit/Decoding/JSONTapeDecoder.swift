import Foundation

/// The `Decoder` behind ``JSONView/decode(_:)``: a caller's model straight from a ``JSONTape``.
///
/// Objects and arrays are walked in place; a scalar becomes a ``JSONValue`` only when a field asks for
/// it, and is then decoded by ``JSONValueDecoder``'s own rules, so the leniency, the error messages
/// and the coding paths are exactly those of ``JSONValue/decode(_:)`` on the same value.
struct JSONTapeDecoder: Decoder {
    let tape: JSONTape
    let index: Int
    let parentPath: [any CodingKey]
    let lastKey: (any CodingKey)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var codingPath: [any CodingKey] {
        guard let lastKey else { return parentPath }
        return parentPath + [lastKey]
    }

    /// The tree decoder for this value, which decodes scalars.
    var scalar: JSONValueDecoder { JSONValueDecoder(value: tape.value(index), parentPath: parentPath, lastKey: lastKey) }

    var kindDescription: String { JSONView(tape: tape, index: index).kindDescription }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tape.kind(index) == .object else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(kindDescription)"))
        }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(members: TapeMemberIndex(tape: tape, object: index, codingPath: codingPath)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch tape.kind(index) {
        case .array:
            var elements: [Int] = []
            let end = tape.next(index)
            var cursor = index + 1
            while cursor < end {
                elements.append(cursor)
                cursor = tape.next(cursor)
            }
            return TapeUnkeyedContainer(tape: tape, elements: elements, codingPath: codingPath)
        case .null:
            throw DecodingError.valueNotFound([Any].self, .init(codingPath: codingPath, debugDescription: "expected an array, found null"))
        default:
            return TapeUnkeyedContainer(tape: tape, elements: [index], codingPath: codingPath)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { TapeSingleValueContainer(decoder: self) }

    /// An array whose elements are all strings, as `[String]`, read without a decoder per element; nil
    /// for anything else (which then takes the general path, with its leniency and its errors).
    func stringArray() -> [String]? { Self.stringArray(tape, index) }

    /// ``stringArray()`` for the value at `index` of `tape`.
    static func stringArray(_ tape: JSONTape, _ index: Int) -> [String]? {
        guard tape.kind(index) == .array else { return nil }
        var strings: [String] = []
        let end = tape.next(index)
        strings.reserveCapacity(end - index - 1)  // one token per element, when they are all strings
        var cursor = index + 1
        while cursor < end {
            guard tape.kind(cursor) == .string else { return nil }
            strings.append(tape.string(cursor))
            cursor += 1
        }
        return strings
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return try scalar.decodeString() as! T }
        if T.self == Decimal.self { return try scalar.decodeDecimal() as! T }
        if T.self == Double.self { return try scalar.decodeFloatingPoint(Double.self) as! T }
        if T.self == Int.self { return try scalar.decodeInteger(Int.self) as! T }
        if T.self == Bool.self { return try scalar.decodeBool() as! T }
        if T.self == URL.self { return try scalar.decodeURL() as! T }
        if T.self == Date.self { return try scalar.decodeDate() as! T }
        if T.self == JSONValue.self { return tape.value(index) as! T }
        if T.self == [String].self, let strings = stringArray() { return strings as! T }
        if tape.kind(index) == .null, !(T.self is any ExpressibleByNilLiteral.Type) {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath, debugDescription: "expected \(T.self), found null"))
        }
        return try T(from: self)
    }
}

private struct TapeIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue!)" }
    init(_ index: Int) { self.intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The object's members, indexed once for the lookups of all the fields; also the tape, the object
    /// and the coding path, so that the container holds one reference: the standard library's box
    /// copies the container for every field it decodes (a retain and a release per reference).
    let members: TapeMemberIndex
    var tape: JSONTape { members.tape }
    var object: Int { members.object }
    var codingPath: [any CodingKey] { members.codingPath }

    var allKeys: [Key] {
        var seen: Set<String> = []
        return (JSONView(tape: tape, index: object).keys ?? []).filter { seen.insert($0).inserted }.compactMap { Key(stringValue: $0) }
    }

    func member(_ key: Key) -> Int? { members.member(key.stringValue) }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    /// The number at `value` as a `Decimal`, read from its bytes when it is plain (no `String` made),
    /// as ``JSONNumber/decimal`` reads it otherwise.
    func decimal(_ value: Int) -> Decimal? {
        tape.withRawBytes(value) { JSONNumber.fastDecimal($0) } ?? JSONNumber(uncheckedText: tape.numberText(value)).decimal
    }

    func child(_ key: Key) throws -> JSONTapeDecoder {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing required key \"\(key.stringValue)\""))
        }
        return JSONTapeDecoder(tape: tape, index: value, parentPath: codingPath, lastKey: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = member(key) else { return true }
        return tape.kind(value) == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if let value = member(key) {
            switch tape.kind(value) {
            case .true: return true
            case .false: return false
            default: break
            }
        }
        return try child(key).scalar.decodeBool()
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        // A string as written needs no tree; anything else takes the general path (numbers as text, errors).
        if let value = member(key), tape.kind(value) == .string { return tape.string(value) }
        return try child(key).scalar.decodeString()
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).scalar.decodeFloatingPoint(Double.self) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).scalar.decodeFloatingPoint(Float.self) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).scalar.decodeInteger(Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).scalar.decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).scalar.decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).scalar.decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).scalar.decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).scalar.decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).scalar.decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).scalar.decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).scalar.decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).scalar.decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if T.self == Decimal.self, let value = member(key), tape.kind(value) == .number, let decimal = decimal(value) {
            return unsafeBitCast(decimal, to: T.self)  // T is Decimal: no dynamic cast needed
        }
        if T.self == [String].self, let value = member(key), let strings = JSONTapeDecoder.stringArray(tape, value) {
            return unsafeBitCast(strings, to: T.self)  // T is [String]
        }
        return try child(key).decodeValue(type)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = member(key), tape.kind(value) != .null else { return nil }
        if tape.kind(value) == .string { return tape.string(value) }
        return try JSONTapeDecoder(tape: tape, index: value, parentPath: codingPath, lastKey: key).scalar.decodeString()
    }

    /// The present, non-null member as a decoder; nil when absent or null. (One lookup: the protocol's
    /// defaults for the scalar types would look the key up three times.)
    func presentChild(_ key: Key) -> JSONTapeDecoder? {
        guard let value = member(key), tape.kind(value) != .null else { return nil }
        return JSONTapeDecoder(tape: tape, index: value, parentPath: codingPath, lastKey: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        if let value = member(key) {
            switch tape.kind(value) {
            case .true: return true
            case .false: return false
            case .null: return nil
            default: return try JSONTapeDecoder(tape: tape, index: value, parentPath: codingPath, lastKey: key).scalar.decodeBool()
            }
        }
        return nil
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentChild(key)?.scalar.decodeFloatingPoint(Double.self) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try presentChild(key)?.scalar.decodeFloatingPoint(Float.self) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentChild(key)?.scalar.decodeInteger(Int.self) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentChild(key)?.scalar.decodeInteger(Int8.self) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentChild(key)?.scalar.decodeInteger(Int16.self) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentChild(key)?.scalar.decodeInteger(Int32.self) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentChild(key)?.scalar.decodeInteger(Int64.self) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentChild(key)?.scalar.decodeInteger(UInt.self) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentChild(key)?.scalar.decodeInteger(UInt8.self) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentChild(key)?.scalar.decodeInteger(UInt16.self) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentChild(key)?.scalar.decodeInteger(UInt32.self) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentChild(key)?.scalar.decodeInteger(UInt64.self) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = member(key), tape.kind(value) != .null else { return nil }
        if T.self == Decimal.self, tape.kind(value) == .number, let decimal = decimal(value) {
            return unsafeBitCast(decimal, to: T.self)  // T is Decimal
        }
        return try JSONTapeDecoder(tape: tape, index: value, parentPath: codingPath, lastKey: key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder {
        JSONTapeDecoder(tape: tape, index: object, parentPath: codingPath, lastKey: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        guard let value = member(key) else {
            return JSONValueDecoder(value: .null, parentPath: codingPath, lastKey: key)
        }
        return JSONTapeDecoder(tape: tape, index: value, parentPath: codingPath, lastKey: key)
    }
}

private struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let tape: JSONTape
    /// The tokens of the elements.
    let elements: [Int]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(tape: JSONTape, elements: [Int], codingPath: [any CodingKey]) {
        self.tape = tape
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next() throws -> JSONTapeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [TapeIndexKey(currentIndex)], debugDescription: "the array has no element \(currentIndex)"))
        }
        defer { currentIndex += 1 }
        return JSONTapeDecoder(tape: tape, index: elements[currentIndex], parentPath: codingPath, lastKey: TapeIndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if tape.kind(elements[currentIndex]) == .null { currentIndex += 1; return true }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: JSONTapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.tape.kind(decoder.index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.scalar.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.scalar.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.scalar.decodeFloatingPoint(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.scalar.decodeFloatingPoint(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.scalar.decodeInteger(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.scalar.decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.scalar.decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.scalar.decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.scalar.decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.scalar.decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.scalar.decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.scalar.decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.scalar.decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.scalar.decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
