import Foundation
import RecoKit

/// A Reteno reply of at least `targetBytes`: the sample reply's products repeated with new ids, the
/// shape of the 50 MB reply in issue 15 (about 500 bytes a product).
enum RetenoReply {
    static func make(targetBytes: Int) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sample = try Data(contentsOf: root.appendingPathComponent("Samples/Payloads/reteno-recoms-full.json"))
        let products = (try JSONSerialization.jsonObject(with: sample) as! [String: Any])["recoms"] as! [[String: Any]]
        let templates = try products.map { product -> [UInt8] in
            var product = product
            product["productId"] = "@ID@"
            return Array(try JSONSerialization.data(withJSONObject: product, options: [.sortedKeys]))
        }
        var bytes = Array(#"{"recoms":["#.utf8)
        bytes.reserveCapacity(targetBytes + 4096)
        var index = 0
        while bytes.count < targetBytes {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            let template = templates[index % templates.count]
            let id = Array("p\(index)".utf8)
            var at = 0
            while at < template.count {
                if template[at] == UInt8(ascii: "@"), at + 3 < template.count, template[at + 1] == UInt8(ascii: "I") {
                    bytes += id
                    at += 4
                } else {
                    bytes.append(template[at])
                    at += 1
                }
            }
            index += 1
        }
        bytes += Array("]}".utf8)
        return Data(bytes)
    }
}

/// The model a shop would decode Reteno products into.
struct RetenoItem: RecommendableProduct {
    let productId: String
    let name: String
    let url: String
    let imageUrl: String?
    let price: Decimal
    let category: [String]
}
