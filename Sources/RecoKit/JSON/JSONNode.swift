import Foundation

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
    /// The members, each key once with its value (the last one when the key is repeated, as the
    /// subscript gives it), when this is an object: one pass, where a lookup per key would scan the
    /// object each time.
    var nodeMembers: [String: Self]? { get }
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
    /// A document that a vendor sent as text inside a string (JSON in a string), parsed into a node of
    /// the same kind: a tree for a tree, a tape of its own for a tape.
    /// - Throws: ``PayloadError`` as ``JSONValue/init(parsing:limits:)-(String,_)`` throws for the text.
    static func parsing(embedded text: String) throws(PayloadError) -> Self
}

extension JSONValue: JSONNode {
    package var nodeElements: [JSONValue]? { arrayValue }
    package var nodeKeys: [String]? { objectValue.map { Array($0.keys) } }
    package var nodeMembers: [String: JSONValue]? { objectValue }
    package var isObject: Bool { if case .object = self { true } else { false } }
    package var kindPlaceholder: JSONValue { self }
    package var tree: JSONValue { self }
    package func rawProduct(at path: JSONPath) throws(PayloadError) -> RawProduct { try RawProduct(self, at: path) }
    package static func parsing(embedded text: String) throws(PayloadError) -> JSONValue { try JSONValue(parsing: text) }
}

extension JSONView: JSONNode {
    package var nodeElements: [JSONView]? { elements }
    package var nodeKeys: [String]? {
        guard let keys else { return nil }
        // A few keys are told apart by comparing them (no set to hash them into); many go through a set.
        if keys.count > 16 { return Array(Set(keys)) }
        var unique: [String] = []
        unique.reserveCapacity(keys.count)
        for key in keys where !unique.contains(key) { unique.append(key) }
        return unique
    }
    package var nodeMembers: [String: JSONView]? {
        guard kind == .object else { return nil }
        var members: [String: JSONView] = [:]
        let end = tape.next(index)
        var cursor = index + 1
        while cursor < end {
            members[tape.string(cursor)] = JSONView(tape: tape, index: cursor + 1)
            cursor = tape.next(cursor + 1)
        }
        return members
    }
    package var tree: JSONValue { value }
    package func rawProduct(at path: JSONPath) throws(PayloadError) -> RawProduct { try RawProduct(self, at: path) }
    /// The text is indexed into a tape, which accepts what the tree parser accepts and throws its errors.
    /// Text inside a string of a tape's document is shorter than that document, so it always fits a
    /// tape; the fallback error is never expected.
    package static func parsing(embedded text: String) throws(PayloadError) -> JSONView {
        guard let tape = try JSONTape.parse(Data(text.utf8)) else {
            throw .invalidJSON("embedded JSON too large to index", at: .root, line: 1, column: 1)
        }
        return tape.root
    }
}
