import Foundation
import Testing
import RecoKit

/// A caller's model, as a Reteno user would declare it (their own CodingKeys, `descr` for the description).
private struct Recommendation: RecommendableProduct, Equatable {
    let productId: String
    let name: String
    let description: String?
    let imageUrl: URL?
    let price: Decimal
    let category: [String]
    enum CodingKeys: String, CodingKey {
        case productId, name, description = "descr", imageUrl, price, category
    }
}

@Suite("Decoding into the caller's model")
struct LenientDecodingTests {
    @Test func decodesWithTheCallersCodingKeys() throws {
        let json = try JSONValue(parsing: #"{"productId":"240-LV09","name":"Luma Yoga","descr":"Mat","imageUrl":"https://cdn.example/a.jpg","price":349.99,"category":["Gear","Yoga"],"tags_color":"blue"}"#)
        let product = try json.decode(Recommendation.self)
        #expect(product == Recommendation(productId: "240-LV09", name: "Luma Yoga", description: "Mat", imageUrl: URL(string: "https://cdn.example/a.jpg"), price: Decimal(string: "349.99")!, category: ["Gear", "Yoga"]))
    }

    @Test(arguments: [#""349.99""#, "349.99", #"" 349.99 ""#])
    func priceAsNumberOrNumericStringIsExact(price: String) throws {
        let json = try JSONValue(parsing: #"{"productId":"p","name":"n","price":\#(price),"category":"Shoes"}"#)
        let product = try json.decode(Recommendation.self)
        #expect(product.price == Decimal(string: "349.99"))
        #expect("\(product.price)" == "349.99")
        #expect(product.category == ["Shoes"])
    }

    @Test func numericProductIdKeepsItsText() throws {
        let json = try JSONValue(parsing: #"{"productId":-897541074991628287,"name":"n","price":1,"category":[]}"#)
        #expect(try json.decode(Recommendation.self).productId == "-897541074991628287")
    }

    @Test func aNonNumericPriceIsAnErrorWithItsPathNotASilentNil() {
        let json: JSONValue = ["productId": "p", "name": "n", "price": "cheap", "category": []]
        let failure = failureOf(json)
        #expect(failure?.path.description == "$.price")
        #expect(failure?.reason == #"expected a number, found the string "cheap""#)
    }

    @Test func aMissingKeyNamesTheKeyAndItsPath() {
        let json: JSONValue = ["productId": "p", "price": 1, "category": []]
        let failure = failureOf(json)
        #expect(failure?.path.description == "$.name")
        #expect(failure?.reason == #"missing required key "name""#)
    }

    @Test func aWrongTypeInsideAnArrayNamesTheElement() {
        let json: JSONValue = ["productId": "p", "name": "n", "price": 1, "category": ["a", ["nested"]]]
        #expect(failureOf(json)?.path.description == "$.category[1]")
    }

    @Test func datesFromEpochMillisecondsSecondsAndISO8601() throws {
        struct Stamped: Decodable { let a: Date; let b: Date; let c: Date }
        let json = try JSONValue(parsing: #"{"a":1714566896000,"b":1714566896,"c":"2024-05-01T12:34:56Z"}"#)
        let stamped = try json.decode(Stamped.self)
        #expect(stamped.a == stamped.b)
        #expect(stamped.b == stamped.c)
    }

    @Test func booleansFromStringsAndZeroOne() throws {
        struct Flags: Decodable { let a: Bool; let b: Bool; let c: Bool }
        let flags = try JSONValue(parsing: #"{"a":"true","b":0,"c":true}"#).decode(Flags.self)
        #expect(flags.a && !flags.b && flags.c)
    }

    private func failureOf(_ json: JSONValue) -> ProductFailure? {
        do {
            _ = try json.decode(Recommendation.self)
            return nil
        } catch {
            return ProductFailure(index: 0, productId: nil, instanceId: nil, productPath: .root, error: error)
        }
    }
}
