import Foundation
import Testing
@testable import RecoVendors

@Suite("Connectif purchase wire JSON")
struct PurchaseEncodingTests {
    let json = try! ConnectifPurchaseEvent(purchase: ConnectifFixtures.purchase, context: ConnectifFixtures.context).json

    @Test func envelopeAndContext() {
        #expect(json.objectValue?.keys.sorted() == ["context", "purchase", "type"])
        #expect(json["type"] == "purchase")
        #expect(json["context"] == ["platform": "Linux", "osVersion": "Ubuntu 24.04.1 LTS", "appVersion": "2.4.1", "toolkitVersion": "0.1.0"])
    }

    @Test func purchaseFieldsUseTheGuidesNames() throws {
        let purchase = try #require(json["purchase"])
        #expect(purchase.objectValue?.keys.sorted() == [
            "cartId", "paymentMethod", "products", "purchaseDate", "purchaseId", "source_name", "source_type", "totalPrice", "totalQuantity",
        ])
        #expect(purchase["purchaseId"] == "purchase-e3418b5a-8709-4593-a7c8-d8a7f12df737")
        #expect(purchase["cartId"] == "cart-0098caf9-42f4-44e9-afdd-45eafe892293")
        #expect(purchase["totalQuantity"]?.numberValue?.text == "3")
        #expect(purchase["totalPrice"]?.numberValue?.text == "139.87")
        #expect(purchase["purchaseDate"] == "2025-03-14T09:26:53Z")
        #expect(purchase["paymentMethod"] == "Credit Card")
        #expect(purchase["source_name"] == "Web shop ES")
        #expect(purchase["source_type"] == "digital-store")
        #expect(purchase["products"]?.arrayValue?.count == 2)
    }

    @Test func everyProductFieldIsWrittenAsTheGuideNamesIt() throws {
        let shoe = try #require(json["purchase"]?["products"]?[0])
        let expected: [String: String] = [
            "productId": #""59a31949a1a562d4979fbca2""#, "name": #""Trail running shoe Kestrel GTX""#,
            "unitPrice": "51.88", "quantity": "2", "price": "103.76",
            "productDetailUrl": #""https://shop.example.es/p/kestrel-gtx-59a31949""#,
            "description": #""Waterproof trail shoe with a Vibram sole""#,
            "imageUrl": #""https://cdn.example.es/img/59a31949/main.jpg""#,
            "thumbnailUrl": #""https://cdn.example.es/img/59a31949/thumb.jpg""#,
            "categories": #"["Running","Trail","Shoes"]"#, "tags": #"["Trending","New Arrival"]"#, "brand": #""Kestrel""#,
            "reviewCount": "150", "rating": "4.5", "ratingCount": "124",
            "unitPriceOriginal": "64.85", "unitPriceWithoutVAT": "42.88", "discountedAmount": "12.97", "discountedPercentage": "20",
            "publishedAt": #""2024-11-02T08:00:00Z""#,
            "customField1": #""Special Edition""#, "customField2": #""Limited Stock""#, "customField3": #""Online Only""#,
        ]
        #expect(shoe.objectValue?.keys.sorted() == expected.keys.sorted())
        for (key, text) in expected {
            #expect(shoe[key].map { JSONWriter.string($0) } == text, "products[0].\(key)")
        }
    }

    @Test func absentOptionalFieldsAreLeftOut() throws {
        let socks = try #require(json["purchase"]?["products"]?[1])
        #expect(socks.objectValue?.keys.sorted() == ["name", "price", "productId", "quantity", "unitPrice"])
        var bare = ConnectifFixtures.purchase
        bare.purchaseDate = nil
        bare.paymentMethod = nil
        bare.sourceName = nil
        bare.sourceType = nil
        let bareJSON = try ConnectifPurchaseEvent(purchase: bare, context: ConnectifFixtures.context).json
        #expect(bareJSON["purchase"]?.objectValue?.keys.sorted() == ["cartId", "products", "purchaseId", "totalPrice", "totalQuantity"])
    }

    @Test func moneyKeepsEveryDigit() throws {
        var purchase = ConnectifFixtures.purchase
        purchase.totalPrice = ConnectifFixtures.money("1234567890.123456789")
        let body = try ConnectifPurchaseEvent(purchase: purchase, context: ConnectifFixtures.context).body
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains(#""totalPrice":1234567890.123456789"#))
        #expect(!text.contains("51.880000"), "no binary floating point on the way")
    }

    @Test func theBodyIsTheJSON() throws {
        let event = try ConnectifPurchaseEvent(purchase: ConnectifFixtures.purchase, context: ConnectifFixtures.context)
        #expect(try JSONValue(parsing: event.body) == event.json)
    }

    @Test func theSampleDecodesToTheSamePurchase() throws {
        let event = try ConnectifPurchaseEvent.decode(VendorPayloadSamples.data("connectif-purchase.json"))
        #expect(event.purchase == ConnectifFixtures.purchase)
        #expect(event.context == ConnectifFixtures.context)
        #expect(try JSONValue(parsing: VendorPayloadSamples.data("connectif-purchase.json")) == event.json, "the sample is what the toolkit writes")
    }

    @Test func anEncodedEventDecodesBackWhole() throws {
        let event = try ConnectifPurchaseEvent(purchase: ConnectifFixtures.purchase, context: ConnectifFixtures.context)
        #expect(try ConnectifPurchaseEvent.decode(event.body) == event)
    }

    @Test(arguments: [
        (#"{"type":"purchase","purchase":{"purchaseId":"p","totalQuantity":1,"totalPrice":1,"products":[]},"context":{}}"#,
         "missing required key \"cartId\" at $.purchase"),
        (#"{"type":"purchase","purchase":{"purchaseId":"p","cartId":"c","totalQuantity":1,"totalPrice":"ten","products":[]},"context":{}}"#,
         "expected a number, found a string at $.purchase.totalPrice"),
        (#"{"type":"purchase","purchase":{"purchaseId":"p","cartId":"c","totalQuantity":1,"totalPrice":1,"source_type":"shop","products":[]},"context":{}}"#,
         #"source_type: unknown value "shop"; valid values are "marketplace", "digital-store", "point-of-sale", "third-party", "other" at $.purchase.source_type"#),
        (#"{"type":"purchase","purchase":{"purchaseId":"p","cartId":"c","totalQuantity":0,"totalPrice":1,"products":[{"productId":"x","name":"n","unitPrice":1,"quantity":0,"price":1}]},"context":{"platform":"Linux","osVersion":"6","appVersion":"1","toolkitVersion":"0.1.0"}}"#,
         "products[0].quantity: must be at least 1, got 0 at $.purchase.products[0].quantity"),
        (#"{"type":"order","purchase":{}}"#, #"expected event type "purchase", found "order" at $.type"#),
    ])
    func decodingSaysWhatAndWhere(json: String, message: String) {
        #expect {
            try ConnectifPurchaseEvent.decode(Data(json.utf8))
        } throws: { error in
            (error as? PayloadError)?.description == message
        }
    }
}
