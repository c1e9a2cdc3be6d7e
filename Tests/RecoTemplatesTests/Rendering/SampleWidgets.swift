import Foundation
import RecoTemplates

/// Widgets made by hand from product JSON, for tests that need exact or hostile content.
enum SampleWidgets {
    static func widget(
        _ products: [String], title: String = "Picked for you", vendor: Vendor = .segmentify,
        instanceId: String = "scn_1", interactionId: String = "act_1"
    ) throws -> Widget<RawProduct> {
        let raws = try products.enumerated().map { index, json in
            (try RawProduct(JSONValue(parsing: json)), JSONPath.root.appending(key: "products").appending(index: index))
        }
        return Widget(vendor: vendor, instanceId: instanceId, interactionId: interactionId, title: title, rawProducts: raws)
    }

    /// Three shoes: one on sale with a vendor price text, one with a numeric price, one without a price.
    static func shoes() throws -> Widget<RawProduct> {
        try widget([
            #"{"productId":"p1","name":"Trail Runner","url":"https://shop.example.com/p1","image":"//cdn.example.com/p1.jpg","price":600,"oldPrice":800,"priceText":"600,00 TL","currency":"TRY","brand":"Asics","params":{"color":"blue"}}"#,
            #"{"productId":"p2","name":"Court Classic","url":"/p2","imageUrl":"https://cdn.example.com/p2.jpg","price":"1299.9","currency":"EUR"}"#,
            #"{"productId":3,"title":"Gift Card","url":"https://shop.example.com/gift"}"#,
        ])
    }
}
