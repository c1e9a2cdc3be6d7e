import Foundation
@testable import RecoVendors

/// The purchase of `Samples/Payloads/connectif-purchase.json`, built in Swift.
enum ConnectifFixtures {
    static func money(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }
    static func date(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    static let shoe = ProductBasketItem(
        productId: "59a31949a1a562d4979fbca2", name: "Trail running shoe Kestrel GTX", unitPrice: money("51.88"), quantity: 2,
        price: money("103.76"), productDetailUrl: "https://shop.example.es/p/kestrel-gtx-59a31949",
        description: "Waterproof trail shoe with a Vibram sole", imageUrl: "https://cdn.example.es/img/59a31949/main.jpg",
        categories: ["Running", "Trail", "Shoes"], tags: ["Trending", "New Arrival"], brand: "Kestrel", reviewCount: 150,
        rating: money("4.5"), ratingCount: 124, thumbnailUrl: "https://cdn.example.es/img/59a31949/thumb.jpg",
        unitPriceOriginal: money("64.85"), unitPriceWithoutVAT: money("42.88"), discountedAmount: money("12.97"),
        discountedPercentage: money("20.00"), publishedAt: date("2024-11-02T08:00:00Z"),
        customField1: "Special Edition", customField2: "Limited Stock", customField3: "Online Only")

    static let socks = ProductBasketItem(
        productId: "59a3195ba1a562d4979fbcb7", name: "Merino running socks", unitPrice: money("36.11"), quantity: 1, price: money("36.11"))

    static let purchase = Purchase(
        purchaseId: "purchase-e3418b5a-8709-4593-a7c8-d8a7f12df737", cartId: "cart-0098caf9-42f4-44e9-afdd-45eafe892293",
        totalQuantity: 3, totalPrice: money("139.87"), products: [shoe, socks], purchaseDate: date("2025-03-14T09:26:53Z"),
        paymentMethod: "Credit Card", sourceName: "Web shop ES", sourceType: .digitalStore)

    static let context = EventContext(platform: "Linux", osVersion: "Ubuntu 24.04.1 LTS", appVersion: "2.4.1", toolkitVersion: "0.1.0")
}

/// Remembers what it was asked to send, and fails when told to.
actor RecordingConnectifSender: ConnectifEventSender {
    private(set) var sent: [ConnectifPurchaseEvent] = []
    var failure: ConnectifError?

    func failNext(_ error: ConnectifError) { failure = error }

    func send(_ event: ConnectifPurchaseEvent) async throws(ConnectifError) {
        if let failure { throw failure }
        sent.append(event)
    }
}
