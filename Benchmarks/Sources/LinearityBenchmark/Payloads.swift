import Foundation

/// Reteno replies grown along one dimension from the sample `reteno-recoms-full.json`, whose ten
/// products stay as they are except for what the dimension changes.
enum Dimension: String, CaseIterable {
    /// One product's productId and name `size` characters long.
    case longString = "long string"
    /// One product with `size` extra fields.
    case manyKeys = "many keys"
    /// `size` products (the sample's, repeated with new ids).
    case manyProducts = "many products"
    /// 5,000 products, each with a field that is an array nested `size` deep (kept well under the
    /// parser's nesting limit).
    case deepArrays = "deep arrays"

    /// The first size; the benchmark doubles it.
    var baseSize: Int {
        switch self {
        case .longString: 4_000_000
        case .manyKeys: 80_000
        case .manyProducts: 10_000
        case .deepArrays: 20
        }
    }

    /// The reply's JSON text at `size`.
    func payload(size: Int, sample: [[String: Any]]) throws -> Data {
        var products = sample
        switch self {
        case .longString:
            let text = String(repeating: "x", count: size)
            products[0]["productId"] = "L" + text
            products[0]["name"] = "Name " + text
        case .manyKeys:
            for key in 0..<size { products[0][String(format: "field%07d", key)] = "value \(key)" }
        case .manyProducts:
            products = (0..<size).map { index in
                var product = sample[index % sample.count]
                product["productId"] = "P\(index)"
                return product
            }
        case .deepArrays:
            var deep: Any = ["leaf"]
            for _ in 1..<size { deep = [deep, 1] }
            products = (0..<5_000).map { index in
                var product = sample[index % sample.count]
                product["productId"] = "P\(index)"
                product["deep"] = deep
                return product
            }
        }
        return try JSONSerialization.data(withJSONObject: ["recoms": products])
    }
}

/// Segmentify replies of `size` blocks, each a copy of the first block of the sample
/// `segmentify-v3.json` with one instance id for all (as a hostile reply may send) and no elimination.
enum ManyWidgets {
    static let name = "many widgets"
    static let baseSize = 1_000

    static func payload(size: Int, sample: [String: Any]) throws -> Data {
        var reply = sample
        let groups = sample["responses"] as! [[[String: Any]]]
        var block = groups[0][0]
        var params = block["params"] as! [String: Any]
        params["elimination"] = "NO_ELIMINATION"
        block["params"] = params
        reply["responses"] = [Array(repeating: block, count: size)]
        return try JSONSerialization.data(withJSONObject: reply)
    }
}
