/// A product exactly as the vendor sent it: every field, as JSON.
///
/// It is itself a ``RecommendableProduct``, so every decoder can produce raw products first and your
/// model second. Read any field, nested ones by a dotted path:
///
/// ```swift
/// raw["name"]?.stringValue
/// raw["params.color"]?.stringValue
/// raw["price"]?.decimalValue        // a number or a numeric string, exactly
/// ```
public struct RawProduct: RecommendableProduct, Hashable, CustomStringConvertible {
    /// The product's identifier (a number in the payload is kept as the text it was written as).
    public let productId: String
    /// Where the fields are: a tree, or the reply's tape (read in place until someone asks for a tree).
    private let storage: Storage

    private enum Storage: Sendable {
        case tree([String: JSONValue])
        case tape(JSONView)
    }

    /// Every field the vendor sent. A product decoded from a reply's bytes keeps its fields in the reply
    /// until they are read: reading this makes them all; ``field(named:)`` and the subscript read one.
    public var fields: [String: JSONValue] {
        switch storage {
        case .tree(let fields): fields
        case .tape(let view): view.tape.members(view.index)
        }
    }

    /// Makes a raw product from a JSON object.
    /// - Throws: ``PayloadError`` when `json` is not an object or has no usable `productId`.
    public init(_ json: JSONValue, at path: JSONPath = .root) throws(PayloadError) {
        guard case .object(let fields) = json else { throw .typeMismatch(expected: "a product object", found: json, at: path) }
        try self.init(fields: fields, at: path)
    }

    /// Makes a raw product from an object's members.
    /// - Throws: ``PayloadError`` when there is no `productId` that is a non-empty string or a number.
    public init(fields: [String: JSONValue], at path: JSONPath = .root) throws(PayloadError) {
        switch fields["productId"] {
        case .string(let id) where !id.isEmpty: self.productId = id
        case .number(let number): self.productId = number.text
        case nil: throw .missingKey("productId", at: path)
        case .string: throw .invalidValue("productId is an empty string", at: path.appending(key: "productId"))
        case let other?: throw .typeMismatch(expected: "a string productId", found: other, at: path.appending(key: "productId"))
        }
        self.storage = .tree(fields)
    }

    /// Makes a raw product from an object in a reply's tape, reading only its `productId` now.
    /// - Throws: ``PayloadError`` as ``init(_:at:)`` does for the same value.
    @_spi(JSONTape)
    public init(_ view: JSONView, at path: JSONPath = .root) throws(PayloadError) {
        guard view.isObject else { throw .typeMismatch(expected: "a product object", found: view.kindPlaceholder, at: path) }
        switch view["productId"] {
        case let id? where id.kind == .string:
            let text = id.tape.string(id.index)
            guard !text.isEmpty else { throw .invalidValue("productId is an empty string", at: path.appending(key: "productId")) }
            self.productId = text
        case let id? where id.kind == .number: self.productId = id.tape.numberText(id.index)
        case nil: throw .missingKey("productId", at: path)
        case let other?: throw .typeMismatch(expected: "a string productId", found: other.kindPlaceholder, at: path.appending(key: "productId"))
        }
        self.storage = .tape(view)
    }

    public init(from decoder: any Decoder) throws {
        if let tape = decoder as? JSONTapeDecoder {
            do {
                try self.init(JSONView(tape: tape.tape, index: tape.index))
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
            }
            return
        }
        let json = try JSONValue(from: decoder)
        do {
            try self.init(json)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// The whole product as a JSON object.
    public var json: JSONValue { .object(fields) }

    /// The field at a name or a dotted path (`"params.color"`), nil when absent.
    public subscript(field: String) -> JSONValue? {
        switch storage {
        case .tree: return json[path: field]
        case .tape(let view):
            if let value = view[field] { return value.value }
            return field.contains(".") ? json[path: field] : nil
        }
    }

    /// The field with exactly this name (not a dotted path), nil when absent: `fields[name]`, without
    /// making the other fields.
    public func field(named name: String) -> JSONValue? {
        switch storage {
        case .tree(let fields): fields[name]
        case .tape(let view): view[name]?.value
        }
    }

    /// Decodes your model from this product (see ``JSONValue/decode(_:)`` for the leniency rules).
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch storage {
        case .tree: try json.decode(type)
        case .tape(let view): try view.decode(type)
        }
    }

    public static func == (lhs: RawProduct, rhs: RawProduct) -> Bool {
        lhs.productId == rhs.productId && lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(productId)
        hasher.combine(fields)
    }

    public var description: String { json.description }
}
