import Foundation
import RecoKit
import RecoPage

/// The products the shop sells, by id: a product page exists only for these (any other id is a 404), and a
/// recommended product in the catalog links to the shop's own page for it rather than the vendor's URL.
///
/// The sample's catalog (`Resources/catalog.json`) holds the products of the sample payloads.
public struct Catalog: Sendable {
    /// Each product's name, by id.
    public let names: [String: String]
    /// The products' ids in the catalog's order (the file's), best sellers first.
    public let ids: [String]

    /// A catalog of these products, in the order of `ids` (by id when not given).
    public init(names: [String: String], ids: [String]? = nil) {
        self.names = names
        self.ids = ids?.filter { names[$0] != nil } ?? names.keys.sorted()
    }

    /// The sample's catalog, read from the bundle.
    /// - Throws: when the file is missing or not a list of `{"productId", "name"}` objects (with the JSON path).
    public static func sample() throws -> Catalog {
        guard let file = Bundle.module.url(forResource: "catalog", withExtension: "json", subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the sample's catalog.json is missing from its bundle"])
        }
        let list = try JSONValue(parsing: Data(contentsOf: file))
        var names: [String: String] = [:]
        var ids: [String] = []
        for (index, entry) in (list.arrayValue ?? []).enumerated() {
            guard let id = entry["productId"]?.stringValue else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "catalog.json: $[\(index)].productId is missing"])
            }
            if names[id] == nil { ids.append(id) }
            names[id] = entry["name"]?.stringValue ?? id
        }
        return Catalog(names: names, ids: ids)
    }

    /// The shop's own list, shown in a vendor's place when it fails and no answer of it is kept: the
    /// catalog's first `count` products (the sample has no sales figures), as a block marked as the
    /// shop's (`shop:best-sellers`), each linking to its page here.
    public func bestSellers(count: Int = 8) -> ShopList {
        let products = ids.prefix(count).compactMap { id in
            try? RawProduct(fields: ["productId": .string(id), "name": .string(names[id] ?? id), "url": .string("/products/" + id)])
        }
        return ShopList(name: "best-sellers", title: "Popular in our shop", products: products)
    }

    /// The shop's own page for a product it sells; nil for one it does not.
    public func pagePath(of productId: String) -> String? {
        names[productId] == nil ? nil : "/products/" + productId
    }
}
