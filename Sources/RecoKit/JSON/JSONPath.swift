/// A location inside a JSON document, written the way people read it: `$.responses[0][1].params.instanceId`.
///
/// Keys that are not plain identifiers are quoted: `$.recommendedProducts["ASICS|MONTHLY|ROCK"][2]`.
/// A value that was JSON encoded inside a string (Segmentify's `dynamicItems`) continues the path of
/// that string with a `(json)` marker: `$.responses[0][0].params.dynamicItems(json)[1].itemCount`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step of a path.
    public enum Component: Hashable, Sendable {
        /// A key of an object.
        case key(String)
        /// A zero-based index into an array.
        case index(Int)
        /// The JSON document encoded inside the string at this point.
        case embeddedJSON
    }

    /// The steps from the document's root.
    public var components: [Component] {
        get {
            guard let lastIndex else { return leading }
            var all = leading
            all.append(.index(lastIndex))
            return all
        }
        set {
            leading = newValue
            lastIndex = nil
        }
    }

    /// The steps but a final array index, which is kept apart (``lastIndex``): the path of every element
    /// of a list then shares the list's array, so a product's path costs no allocation of its own.
    private var leading: [Component]
    private var lastIndex: Int?

    /// The root of a document (`$`).
    public static let root = JSONPath(components: [])

    public init(components: [Component]) {
        self.leading = components
        self.lastIndex = nil
    }
    public init(arrayLiteral elements: Component...) { self.init(components: elements) }

    /// How many steps the path has.
    private var count: Int { leading.count + (lastIndex == nil ? 0 : 1) }

    /// Calls `body` with each step in order, without making the array of them.
    private func forEachComponent(_ body: (Component) -> Void) {
        for component in leading { body(component) }
        if let lastIndex { body(.index(lastIndex)) }
    }

    /// This path extended by one step (in one allocation).
    private func appending(component: Component) -> JSONPath {
        var all: [Component] = []
        all.reserveCapacity(count + 1)
        forEachComponent { all.append($0) }
        all.append(component)
        return JSONPath(components: all)
    }

    /// This path extended by a key.
    public func appending(key: String) -> JSONPath { appending(component: .key(key)) }
    /// This path extended by an array index.
    public func appending(index: Int) -> JSONPath {
        guard lastIndex == nil else { return appending(component: .index(index)) }
        var path = self
        path.lastIndex = index
        return path
    }
    /// This path extended by the marker of a JSON document encoded in a string.
    public func appendingEmbeddedJSON() -> JSONPath { appending(component: .embeddedJSON) }
    /// This path followed by another (relative) path.
    public func appending(_ other: JSONPath) -> JSONPath { JSONPath(components: components + other.components) }

    public static func == (lhs: JSONPath, rhs: JSONPath) -> Bool {
        if lhs.lastIndex == rhs.lastIndex && lhs.leading == rhs.leading { return true }
        return lhs.count == rhs.count && lhs.components == rhs.components
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        forEachComponent { hasher.combine($0) }
    }

    public var description: String {
        var text = "$"
        forEachComponent { component in
            switch component {
            case .key(let key):
                // A vendor's key may be a megabyte, and every path under it quotes it.
                let key = key.shortened(to: String.quotedWordsLength)
                if Self.isIdentifier(key) { text += "." + key } else { text += "[" + Self.quoted(key) + "]" }
            case .index(let index):
                text += "[\(index)]"
            case .embeddedJSON:
                text += "(json)"
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return key.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
        }
    }

    private static func quoted(_ key: String) -> String {
        var text = "\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

extension JSONPath {
    /// The path of a `Decoder`'s coding path: integer keys are array indices, the rest object keys.
    public init(codingPath: [any CodingKey]) {
        self.init(components: codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }
}
