import Foundation
import RecoKit
import RecoTracking

/// The Segmentify request that asks for a product page's recommendation blocks: a `PRODUCT_VIEW`
/// event posted to `{dataCenter}/add/events/v1.json?apiKey=…`, answered with the envelope
/// `{"statusCode":"SUCCESS","responses":[[…]]}` that ``SegmentifyRecommendations`` decodes.
///
/// RecoKit has a request builder for Reteno (``RetenoRecomsRequest``) but not for a Segmentify request
/// whose reply is read at once. RecoVendors' `SegmentifyProductView` event (delivered later by the
/// tracker) needs catalog fields (title, url, image, category, price) this sample has no catalog for,
/// so the sample sends the minimal event itself, in the same shape.
struct SegmentifyRecommendationRequest: Sendable {
    var dataCenter: URL
    var apiKey: String
    var origin: String
    var productId: String
    var visitor: Visitor
    var language: String
    var pageURL: String

    var request: TrackingRequest {
        var components = URLComponents(url: dataCenter.appendingPathComponent("add/events/v1.json"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "apiKey", value: apiKey)]
        let event: JSONValue = .object([
            "name": "PRODUCT_VIEW", "productId": .string(productId), "userId": .string(visitor.id),
            "sessionId": .string(visitor.session), "lang": .string(language), "pageUrl": .string(pageURL),
        ])
        return TrackingRequest(url: components.url!,
                               headers: [("Content-Type", "application/json"), ("Accept", "application/json"), ("Origin", origin)],
                               body: Data(JSONWriter.string(.array([event])).utf8))
    }
}
