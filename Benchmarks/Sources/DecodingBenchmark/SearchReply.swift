import Foundation

/// A Segmentify search reply (after search) of at least `targetBytes`: the sample's products under
/// `search[0][0].products` repeated with new ids, its campaign and other groups as they are.
enum SearchReply {
    static func make(targetBytes: Int) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sample = try Data(contentsOf: root.appendingPathComponent("Samples/Payloads/segmentify-search-after.json"))
        var reply = try JSONSerialization.jsonObject(with: sample) as! [String: Any]
        var groups = reply["search"] as! [[[String: Any]]]
        var result = groups[0][0]
        let products = result["products"] as! [[String: Any]]
        let productBytes = try JSONSerialization.data(withJSONObject: products).count / products.count
        var grown: [[String: Any]] = []
        for index in 0..<(targetBytes / productBytes + 1) {
            var product = products[index % products.count]
            product["productId"] = "s\(index)"
            grown.append(product)
        }
        result["products"] = grown
        groups[0][0] = result
        reply["search"] = groups
        return try JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys])
    }
}
