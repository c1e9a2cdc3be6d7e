import Foundation

/// A Segmentify product-page reply of about `targetBytes`, shaped like the real ones: several blocks,
/// dynamic items JSON-encoded in strings, algorithm keys with non-ASCII text, products with the full
/// field set (formatted price texts, protocol-relative image URLs, params, category arrays).
enum SyntheticReply {
    static func make(targetBytes: Int = 1_000_000) -> Data {
        var blocks: [String] = []
        var size = 0
        var block = 0
        var nextId = 100_000
        while size < targetBytes {
            block += 1
            let sources = [("RECOMMENDATION_SMART_OFFERS", "TODAY", "NONE"), ("SPOR AKTİVİTELERİ > FUTBOL", "MONTHLY", "ROCK"), ("RECOMMENDATION_SOURCE_LAST_VISITED", "THIS_WEEK", "NONE")]
            var dynamic: [String] = []
            var lists: [String] = []
            for (index, source) in sources.enumerated() {
                let count = index == 1 ? "\"12\"" : "12"
                dynamic.append(#"{\"recommendationSource\":\"\#(source.0)\",\"timeFrame\":\"\#(source.1)\",\"score\":\"\#(source.2)\",\"itemCount\":\#(count.replacingOccurrences(of: "\"", with: "\\\""))}"#)
                var products: [String] = []
                for _ in 0..<12 {
                    nextId += 1
                    products.append(product(id: nextId))
                }
                lists.append("\"\(source.0)|\(source.1)|\(source.2)\":[\(products.joined(separator: ","))]")
            }
            let text = """
                {"type":"recommendProducts","params":{"instanceId":"act_\(block)","actionId":"\(block * 7)","notificationTitle":"Bunlar da ilginizi çekebilir \(block)",\
                "dynamicItems":"[\(dynamic.joined(separator: ","))]","staticItems":"[]","elimination":"NO_ELIMINATION",\
                "recommendedProducts":{\(lists.joined(separator: ","))}}}
                """
            size += text.utf8.count
            blocks.append(text)
        }
        return Data(#"{"statusCode":"SUCCESS","timestamp":1714566896000,"responses":[[\#(blocks.joined(separator: ","))]],"search":[],"campaigns":[],"experiments":{}}"#.utf8)
    }

    static func product(id: Int) -> String {
        let price = Decimal(id % 900 + 100) + Decimal(string: "0.99")!
        return """
            {"productId":"\(id)","name":"Asics Gel-Kayano \(id % 97) Erkek Koşu Ayakkabısı","url":"//www.example-shop.com.tr/urun/asics-gel-kayano-\(id)",\
            "mUrl":"//m.example-shop.com.tr/urun/asics-gel-kayano-\(id)","image":"//cdn.example-shop.com.tr/img/\(id)/main.jpg",\
            "imageXS":"//cdn.example-shop.com.tr/img/\(id)/xs.jpg","imageS":"//cdn.example-shop.com.tr/img/\(id)/s.jpg",\
            "category":["Spor Aktiviteleri","Koşu","Ayakkabı"],"mainCategory":"Koşu","brand":"ASICS","price":\(price),"oldPrice":\(price + 100),\
            "priceText":"\(price) TL","oldPriceText":"\(price + 100) TL","currency":"TRY","language":"TR","inStock":true,"stockCount":\(id % 40),\
            "gender":"M","colors":["Siyah","Mavi"],"sizes":["41","42","43","44"],"labels":["yeni"],"params":{"color":"Siyah","season":"SS24"},\
            "lastUpdateTime":1714566896000}
            """
    }
}
