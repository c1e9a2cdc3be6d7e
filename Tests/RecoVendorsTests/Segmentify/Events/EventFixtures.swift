import Foundation
import Testing
import RecoKit
import RecoVendors

/// A realistic visitor and helpers shared by the Segmentify event tests.
enum EventFixtures {
    static let common = SegmentifyCommonFields(userId: "-897541074991628287", sessionId: "-2066154474596835328", lang: "EN",
                                               currency: "USD", pageUrl: "https://segmentify-shop.myshopify.com/products/asymmetric-dress-black")

    /// The guide's product view example (Asymmetric Dress in Black).
    static func dress(common: SegmentifyCommonFields = common) -> SegmentifyProductView {
        var view = SegmentifyProductView(productId: "25799860937", title: "Asymmetric Dress in Black",
                                         url: "https://segmentify-shop.myshopify.com/products/asymmetric-dress-black",
                                         image: "//cdn.shopify.com/s/files/1/1524/5822/products/2014_11_17_Lana_Look034_02_300x300.jpg?v=1475497696",
                                         category: "Womenswear", price: 578, common: common)
        view.inStock = true
        view.brand = "Amelia Toro"
        view.noUpdate = true
        return view
    }

    /// Parses a JSON literal written in a test.
    static func json(_ text: String) -> JSONValue { try! JSONValue(parsing: text) }

    /// The error an event's validation throws, or nil when it passes.
    static func refusal<E: SegmentifyEvent>(_ event: E) -> SegmentifyEventError? {
        do { _ = try event.vendorEvent(); return nil } catch { return error }
    }
}

/// Expects `event` to be refused naming `field`, and returns the error's text.
@discardableResult
func expectRefused<E: SegmentifyEvent>(_ event: E, field: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let error = EventFixtures.refusal(event)
    #expect(error?.field == field, "expected a refusal of \(field), got \(error.map(\.description) ?? "acceptance")",
            sourceLocation: sourceLocation)
    return error?.description ?? ""
}

/// Expects `event` to be accepted.
func expectAccepted<E: SegmentifyEvent>(_ event: E, sourceLocation: SourceLocation = #_sourceLocation) {
    let error = EventFixtures.refusal(event)
    #expect(error == nil, "unexpected refusal: \(error?.description ?? "")", sourceLocation: sourceLocation)
}
