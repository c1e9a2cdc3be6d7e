import Foundation

/// One value of a ``JSONTape``, read in place: its kind, its members and elements, and its scalars,
/// each made only when asked for. ``value`` makes the whole ``JSONValue`` tree of it.
@_spi(JSONTape)
public struct JSONView: Sendable {
    /// The document.
    public let tape: JSONTape
    /// The value's token.
    public let index: Int

    init(tape: JSONTape, index: Int) {
        self.tape = tape
        self.index = index
    }

    /// The value's kind.
    public var kind: JSONTape.Kind { tape.kind(index) }
    /// Whether this is an object.
    public var isObject: Bool { kind == .object }
    /// Whether this is an array.
    public var isArray: Bool { kind == .array }
    /// Whether this is `null`.
    public var isNull: Bool { kind == .null }

    /// The value's kind in words, as ``JSONValue/kindDescription`` says it.
    public var kindDescription: String {
        switch kind {
        case .null: "null"
        case .false, .true: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The whole value as a tree.
    public var value: JSONValue { tape.value(index) }

    /// The string, when this is a string.
    public var stringValue: String? { kind == .string ? tape.string(index) : nil }

    /// The member with this key (the last one when the key is repeated), when this is an object.
    public subscript(key: String) -> JSONView? {
        guard kind == .object, let member = tape.member(key, of: index) else { return nil }
        return JSONView(tape: tape, index: member)
    }

    /// The elements, when this is an array.
    public var elements: [JSONView]? {
        guard kind == .array else { return nil }
        let end = tape.next(index)
        var count = 0
        var cursor = index + 1
        while cursor < end {
            count += 1
            cursor = tape.next(cursor)
        }
        var elements: [JSONView] = []
        elements.reserveCapacity(count)
        cursor = index + 1
        while cursor < end {
            elements.append(JSONView(tape: tape, index: cursor))
            cursor = tape.next(cursor)
        }
        return elements
    }

    /// The keys in document order (a repeated key once per time it is written), when this is an object.
    public var keys: [String]? {
        guard kind == .object else { return nil }
        var keys: [String] = []
        let end = tape.next(index)
        var cursor = index + 1
        while cursor < end {
            keys.append(tape.string(cursor))
            cursor = tape.next(cursor + 1)
        }
        return keys
    }

    /// The members as a dictionary of trees, leaving out the member named `excluded`.
    public func members(except excluded: String? = nil) -> [String: JSONValue]? {
        kind == .object ? tape.members(index, except: excluded) : nil
    }

    /// A scalar as text, as ``JSONValue/scalarText`` gives it.
    public var scalarText: String? {
        switch kind {
        case .string: tape.string(index)
        case .number: tape.numberText(index)
        case .true: "true"
        case .false: "false"
        default: nil
        }
    }

    /// Decodes a caller's model from this value, as ``JSONValue/decode(_:)`` does from the same tree
    /// (the same leniency, the same errors and coding paths), without making the tree.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONTapeDecoder(tape: tape, index: index, parentPath: [], lastKey: nil).decodeValue(type)
    }
}

extension JSONView {
    /// An empty value of the same kind (`.array([])` for an array), for errors that name only the kind
    /// found: a huge value is never made just to be described.
    public var kindPlaceholder: JSONValue {
        switch kind {
        case .null: .null
        case .false: .bool(false)
        case .true: .bool(true)
        case .number: .number(0)
        case .string: .string("")
        case .array: .array([])
        case .object: .object([:])
        }
    }
}
