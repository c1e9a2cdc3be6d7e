import Foundation
import RecoPage
import RecoKitTesting

/// A shop's product model, as a user would write it.
struct Product: RecommendableProduct, Hashable {
    let productId: String
    let name: String
    let price: Decimal?
}

enum Fixtures {
    /// A budget no answer of the stand-in needs, for tests whose point is not the budget: a full parallel
    /// `swift test` on the shared machine has stalled every task of the process for 40 s and more.
    static let patience = Duration.seconds(300)

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A sample payload from `Samples/Payloads`, as text.
    static func payload(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("Samples/Payloads/\(name).json"), encoding: .utf8)
    }

    /// The Segmentify path on the stand-in (`dataCenter` is the server's base URL).
    static let segmentifyPath = "/add/events/v1.json"

    /// The events a product page sends Segmentify for its blocks.
    static func segmentify(_ base: URL, productId: String = "240-LV09", userId: String = "u-1") throws -> SegmentifyRecommendationsRequest {
        let common = SegmentifyCommonFields(userId: userId, sessionId: "s-1", lang: "EN", pageUrl: "https://shop.example/p/\(productId)")
        return try SegmentifyRecommendationsRequest(dataCenter: base, apiKey: "test-key", origin: "shop.example",
                                                    events: [SegmentifyPageView(category: .productPage, common: common)])
    }

    /// Reteno's request for products like `productId`, and its path on the stand-in.
    static func reteno(_ base: URL, productId: String = "240-LV09", variant: String = "r1105v1480") throws -> RetenoRecomsRequest {
        try RetenoRecomsRequest(variantId: RetenoVariantId(variant), accessKey: "test-key", productIds: [productId], baseURL: base)
    }

    static func retenoPath(_ variant: String = "r1105v1480") -> String { "/api/v1/recoms/\(variant)/request" }

    /// A Reteno reply with `count` products whose ids start with `prefix`.
    static func retenoReply(prefix: String, count: Int = 3) -> String {
        let products = (1...count).map { #"{"productId":"\#(prefix)-\#($0)","name":"Product \#($0)","price":\#($0 * 10)}"# }
        return #"{"recoms":[\#(products.joined(separator: ","))]}"#
    }
}

/// Runs `body` with a fresh stand-in, stopping it afterwards.
func withVendorServer<T>(_ body: (VendorServer) async throws -> T) async throws -> T {
    let server = try await blockingWork { try VendorServer() }
    defer { server.stop() }
    return try await body(server)
}
