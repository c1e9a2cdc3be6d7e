import Foundation
import RecoKit

/// The products the shop sells, by id: a product page exists only for these (any other id is a 404), and a
/// recommended product in the catalog links to the shop's own page for it rather than the vendor's URL.
///
/// The sample's catalog (`Resources/catalog.json`) holds the products of the sample payloads.
public struct Catalog: Sendable {
    /// Each product's name, by id.
    public let names: [String: String]

    /// A catalog of these products.
    public init(names: [String: String]) {
        self.names = names
    }

    /// The sample's catalog, read from the bundle.
    /// - Throws: when the file is missing or not a list of `{"productId", "name"}` objects (with the JSON path).
    public static func sample() throws -> Catalog {
        guard let file = Bundle.module.url(forResource: "catalog", withExtension: "json", subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the sample's catalog.json is missing from its bundle"])
        }
        let list = try JSONValue(parsing: Data(contentsOf: file))
        var names: [String: String] = [:]
        for (index, entry) in (list.arrayValue ?? []).enumerated() {
            guard let id = entry["productId"]?.stringValue else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "catalog.json: $[\(index)].productId is missing"])
            }
            names[id] = entry["name"]?.stringValue ?? id
        }
        return Catalog(names: names)
    }

    /// The shop's own page for a product it sells; nil for one it does not.
    public func pagePath(of productId: String) -> String? {
        names[productId] == nil ? nil : "/products/" + productId
    }
}
