/// Which product fields to keep, with the vendors' meaning (Reteno's `fields`):
/// all of them, the `productId` only, or a listed set (the `productId` is always kept).
///
/// It is applied to each raw product before your model is decoded, so a model that needs a field you
/// did not select fails to decode and is reported. A listed field that no product has is reported too
/// (``DecodingNotice/Kind/fieldNotFound``).
///
/// A listed name is a top-level field, or a dotted path into nested objects (`"params.color"` keeps
/// `params` with only its `color`).
public enum FieldSelection: Hashable, Sendable, CustomStringConvertible {
    /// Every field (Reteno: no `fields` key in the request).
    case all
    /// The `productId` alone (Reteno: `"fields": []`).
    case productIdOnly
    /// These fields and the `productId` (Reteno: `"fields": [...]`).
    case only([String])

    /// The selection for a vendor's `fields` parameter: nil means all, empty means productId only.
    public init(fields: [String]?) {
        switch fields {
        case nil: self = .all
        case let list? where list.isEmpty: self = .productIdOnly
        case let list?: self = .only(list)
        }
    }

    /// The vendor's `fields` parameter for this selection: nil (leave the key out), `[]`, or the list.
    public var fields: [String]? {
        switch self {
        case .all: nil
        case .productIdOnly: []
        case .only(let list): list
        }
    }

    /// The names listed (empty for ``all`` and ``productIdOnly``).
    public var listedFields: [String] {
        if case .only(let list) = self { list } else { [] }
    }

    /// The product with only the selected fields.
    public func apply(to product: RawProduct) -> RawProduct {
        switch self {
        case .all:
            return product
        case .productIdOnly:
            return try! RawProduct(fields: ["productId": product.field(named: "productId")!])
        case .only(let names):
            var kept: [String: JSONValue] = ["productId": product.field(named: "productId")!]
            for name in names {
                if let value = product.field(named: name) {
                    kept[name] = value
                } else if name.contains("."), let value = product[name] {
                    Self.insert(value, at: name.split(separator: ".").map(String.init)[...], into: &kept)
                }
            }
            return try! RawProduct(fields: kept)
        }
    }

    /// Whether a product has the listed field (by name or dotted path).
    public static func product(_ product: RawProduct, has field: String) -> Bool { product[field] != nil }

    private static func insert(_ value: JSONValue, at keys: ArraySlice<String>, into object: inout [String: JSONValue]) {
        guard let first = keys.first else { return }
        if keys.count == 1 { object[first] = value; return }
        var nested = object[first]?.objectValue ?? [:]
        insert(value, at: keys.dropFirst(), into: &nested)
        object[first] = .object(nested)
    }

    public var description: String {
        switch self {
        case .all: "all fields"
        case .productIdOnly: "productId only"
        case .only(let list): "fields " + list.joined(separator: ",")
        }
    }
}
