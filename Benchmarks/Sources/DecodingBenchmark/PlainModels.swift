import Foundation
import RecoKit

/// The caller's model both decoders produce.
struct ShopProduct: RecommendableProduct {
    let productId: String
    let name: String
    let url: String
    let image: String
    let price: Decimal
    let oldPrice: Decimal?
    let brand: String?
    let category: [String]
    let inStock: Bool?
}

/// The same reply as plain `Decodable` structs, for `JSONDecoder`: the baseline a team would write by hand.
struct PlainEnvelope: Decodable {
    let statusCode: String
    let responses: [[PlainItem]]
}

struct PlainItem: Decodable {
    let type: String
    let params: PlainParams?
}

struct PlainParams: Decodable {
    let instanceId: String
    let actionId: String?
    let notificationTitle: String?
    let dynamicItems: String?
    let staticItems: String?
    let recommendedProducts: [String: [ShopProduct]]
}
