import Foundation

/// A filter on a product attribute: `name` and the `values` it may take (Reteno's `RecomFilter`).
///
/// Filters are sent in Reteno request bodies, and RecoKit also evaluates them itself on raw products
/// (``matches(_:)``), so they work the same with every vendor. A product passes a list of filters when,
/// for every filter, its attribute matches any of the filter's values:
///
/// - The attribute is found by name, or by a dotted path into nested objects (`params.color`).
///   A product without the attribute (or with `null`) does not match.
/// - **Strings** compare ignoring case, by Unicode case folding with no locale (`"RED"` matches
///   `"red"`; `"İ"` is not folded the Turkish way), and otherwise exactly (no trimming).
/// - **Numbers** compare by value as decimals: the attribute `10` matches the values `"10"`, `"10.0"`
///   and `"1e1"`. A value that is not a number never matches a numeric attribute. A numeric
///   *string* attribute (`"10"`) compares as a string.
/// - **Booleans** match the values `"true"` and `"false"`, ignoring case.
/// - **Arrays** match when any element matches (`category: ["Shoes", "Sale"]` matches `"sale"`).
/// - Objects never match. A filter with no values matches no product.
///
/// ```swift
/// let red = ProductFilter(name: "params.color", values: ["red", "crimson"])
/// red.matches(raw)
/// ```
public struct ProductFilter: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The attribute's name or dotted path.
    public var name: String
    /// The accepted values.
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    /// Parses the command line form `name=v1,v2`.
    /// - Throws: ``PayloadError`` (`invalidValue`) when there is no `=` or no name.
    public init(parsing text: String) throws(PayloadError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .invalidValue("a filter is written name=value1,value2, not \"\(text)\"", at: .root)
        }
        self.name = String(text[..<equals])
        self.values = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether the product's attribute matches any of the values.
    public func matches(_ product: RawProduct) -> Bool {
        guard let attribute = product[name] else { return false }
        return Self.attribute(attribute, matchesAnyOf: values)
    }

    /// Whether a product passes every filter.
    public static func product(_ product: RawProduct, passes filters: [ProductFilter]) -> Bool {
        filters.allSatisfy { $0.matches(product) }
    }

    static func attribute(_ attribute: JSONValue, matchesAnyOf values: [String]) -> Bool {
        switch attribute {
        case .string(let text):
            return values.contains { $0.compare(text, options: [.caseInsensitive]) == .orderedSame }
        case .number(let number):
            guard let decimal = number.decimal else { return false }
            return values.contains { JSONNumber(text: $0.trimmingCharacters(in: .whitespaces))?.decimal == decimal }
        case .bool(let flag):
            return values.contains { $0.lowercased() == (flag ? "true" : "false") }
        case .array(let elements):
            return elements.contains { Self.attribute($0, matchesAnyOf: values) }
        case .null, .object:
            return false
        }
    }

    public var description: String { "\(name)=\(values.joined(separator: ","))" }
}
