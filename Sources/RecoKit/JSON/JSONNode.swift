/// What the vendor decoders read a reply through: a ``JSONValue`` tree, or a ``JSONView`` into a
/// reply's tape. The same decoding code serves both, so a reply parsed by the caller and a reply read
/// from bytes decode alike, with the same paths and errors.
package protocol JSONNode: Sendable {
    /// The member with this key (the last one when the key is repeated), when this is an object.
    subscript(key: String) -> Self? { get }
    /// The elements, when this is an array.
    var nodeElements: [Self]? { get }
    /// The keys (each once), when this is an object.
    var nodeKeys: [String]? { get }
    /// Whether this is an object.
    var isObject: Bool { get }
    /// Whether this is `null`.
    var isNull: Bool { get }
    /// The string, when this is a string.
    var stringValue: String? { get }
    /// A scalar as text (see ``JSONValue/scalarText``).
    var scalarText: String? { get }
    /// A value of the same kind, for errors that name only the kind found.
    var kindPlaceholder: JSONValue { get }
    /// The whole value as a tree.
    var tree: JSONValue { get }
    /// The product this value is.
    /// - Throws: ``PayloadError`` as ``RawProduct/init(_:at:)-(JSONValue,_)`` does.
    func rawProduct(at path: JSONPath) throws(PayloadError) -> RawProduct
}

extension JSONValue: JSONNode {
    package var nodeElements: [JSONValue]? { arrayValue }
    package var nodeKeys: [String]? { objectValue.map { Array($0.keys) } }
    package var isObject: Bool { if case .object = self { true } else { false } }
    package var kindPlaceholder: JSONValue { self }
    package var tree: JSONValue { self }
    package func rawProduct(at path: JSONPath) throws(PayloadError) -> RawProduct { try RawProduct(self, at: path) }
}

extension JSONView: JSONNode {
    package var nodeElements: [JSONView]? { elements }
    package var nodeKeys: [String]? { keys.map { Array(Set($0)) } }
    package var tree: JSONValue { value }
    package func rawProduct(at path: JSONPath) throws(PayloadError) -> RawProduct { try RawProduct(self, at: path) }
}
