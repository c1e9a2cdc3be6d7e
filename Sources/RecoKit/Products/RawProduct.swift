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
    /// Every field the vendor sent.
    public let fields: [String: JSONValue]

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
        self.fields = fields
    }

    public init(from decoder: any Decoder) throws {
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
    public subscript(field: String) -> JSONValue? { json[path: field] }

    /// Decodes your model from this product (see ``JSONValue/decode(_:)`` for the leniency rules).
    public func decode<T: Decodable>(_ type: T.Type) throws -> T { try json.decode(type) }

    public var description: String { json.description }
}
