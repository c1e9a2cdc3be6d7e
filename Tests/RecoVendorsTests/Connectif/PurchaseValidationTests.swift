import Foundation
import Testing
@testable import RecoVendors

@Suite("Connectif purchase rules")
struct PurchaseValidationTests {
    typealias Change = @Sendable (inout Purchase) -> Void

    @Test func theGuidesPurchaseIsAccepted() throws {
        try ConnectifFixtures.purchase.validate()
        #expect(ConnectifFixtures.purchase.problems.isEmpty)
        var minimal = ConnectifFixtures.purchase
        minimal.products = [ConnectifFixtures.socks]
        minimal.totalQuantity = 1
        minimal.purchaseDate = nil
        minimal.paymentMethod = nil
        minimal.sourceName = nil
        minimal.sourceType = nil
        #expect(minimal.problems.isEmpty, "optional fields are optional")
        var free = minimal
        free.totalPrice = 0
        free.products[0].price = 0
        free.products[0].unitPrice = 0
        #expect(free.problems.isEmpty, "a free purchase is allowed")
    }

    static let refusals: [(String, String, Change)] = [
        ("purchaseId", "purchaseId: required, but empty", { $0.purchaseId = "  " }),
        ("cartId", "cartId: required, but empty", { $0.cartId = "" }),
        ("products", "products: required, but empty", { $0.products = [] }),
        ("totalQuantity", "totalQuantity: must equal the sum of the products' quantities (3), got 2", { $0.totalQuantity = 2 }),
        ("totalPrice", "totalPrice: must not be negative, got -1", { $0.totalPrice = -1 }),
        ("source_name", "source_name: must not be blank when given", { $0.sourceName = " " }),
        ("products[1].productId", "products[1].productId: required, but empty", { $0.products[1].productId = "" }),
        ("products[0].name", "products[0].name: required, but empty", { $0.products[0].name = "\n" }),
        ("products[0].unitPrice", "products[0].unitPrice: must not be negative, got -51.88", { $0.products[0].unitPrice = -$0.products[0].unitPrice }),
        ("products[1].quantity", "products[1].quantity: must be at least 1, got 0", { $0.products[1].quantity = 0; $0.totalQuantity = 2 }),
        ("products[1].price", "products[1].price: must not be negative, got -0.01", { $0.products[1].price = ConnectifFixtures.money("-0.01") }),
        ("products[0].productDetailUrl", #"products[0].productDetailUrl: must be an absolute http or https URL, got "javascript:alert(1)""#,
         { $0.products[0].productDetailUrl = "javascript:alert(1)" }),
        ("products[0].imageUrl", #"products[0].imageUrl: must be an absolute http or https URL, got "/img/1.jpg""#, { $0.products[0].imageUrl = "/img/1.jpg" }),
        ("products[0].thumbnailUrl", #"products[0].thumbnailUrl: must be an absolute http or https URL, got "ftp://cdn/1.jpg""#,
         { $0.products[0].thumbnailUrl = "ftp://cdn/1.jpg" }),
        ("products[0].reviewCount", "products[0].reviewCount: must not be negative, got -1", { $0.products[0].reviewCount = -1 }),
        ("products[0].rating", "products[0].rating: must not be negative, got -4.5", { $0.products[0].rating = ConnectifFixtures.money("-4.5") }),
        ("products[0].ratingCount", "products[0].ratingCount: must not be negative, got -2", { $0.products[0].ratingCount = -2 }),
        ("products[0].unitPriceOriginal", "products[0].unitPriceOriginal: must not be negative, got -1", { $0.products[0].unitPriceOriginal = -1 }),
        ("products[0].unitPriceWithoutVAT", "products[0].unitPriceWithoutVAT: must not be negative, got -1", { $0.products[0].unitPriceWithoutVAT = -1 }),
        ("products[0].discountedAmount", "products[0].discountedAmount: must not be negative, got -1", { $0.products[0].discountedAmount = -1 }),
        ("products[0].discountedPercentage", "products[0].discountedPercentage: must be within 0 and 100, got 120", { $0.products[0].discountedPercentage = 120 }),
    ]

    @Test(arguments: refusals)
    func eachRuleIsRefusedNamingTheField(field: String, message: String, change: Change) {
        var purchase = ConnectifFixtures.purchase
        change(&purchase)
        #expect(purchase.problems.map(\.field) == [field])
        #expect(purchase.problems.map(\.description) == [message])
        #expect {
            try purchase.validate()
        } throws: { error in
            (error as? ConnectifError)?.field == field
        }
    }

    @Test func everyProblemIsListed() {
        var purchase = ConnectifFixtures.purchase
        purchase.cartId = ""
        purchase.products[0].name = ""
        purchase.products[1].price = -1
        #expect(purchase.problems.compactMap(\.field) == ["cartId", "products[0].name", "products[1].price"])
    }

    @Test func theFiveSourceTypesAreAccepted() throws {
        let texts = ["marketplace", "digital-store", "point-of-sale", "third-party", "other"]
        #expect(try texts.map { try PurchaseSourceType(parsing: $0) } == PurchaseSourceType.allCases)
        #expect(PurchaseSourceType.allCases.map(\.rawValue) == texts)
    }

    @Test(arguments: ["web", "Marketplace", "", "pont-of-sale"])
    func anUnknownSourceTypeListsTheValidOnes(text: String) {
        do {
            _ = try PurchaseSourceType(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.kind == .unknownSourceType)
            #expect(error.field == "source_type")
            #expect(error.description.hasPrefix(
                #"source_type: unknown value "\#(text)"; valid values are "marketplace", "digital-store", "point-of-sale", "third-party", "other""#))
            #expect(error.description.contains("misspells") == (text == "pont-of-sale"))
        }
    }
}
