import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import RecoVendors

@Suite("Reteno getRecoms request")
struct RetenoRecomsRequestTests {
    let variant = try! RetenoVariantId("r1105v1480")

    func body(_ request: RetenoRecomsRequest) -> String { String(decoding: request.body, as: UTF8.self) }

    @Test func methodURLAndHeaders() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "key-123", deviceId: "device-9")
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://mobile-api.reteno.com/api/v1/recoms/r1105v1480/request")
        #expect(request.headers == [
            "Content-Type": "application/json",
            "X-Reteno-Access-Key": "key-123",
            "X-Reteno-SDK-Version": RetenoRecomsRequest.defaultSDKVersion,
            "X-Reteno-Device-ID": "device-9",
        ])
    }

    @Test func deviceIdHeaderOnlyWhenGiven() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k", sdkVersion: "MyShop/2.1")
        #expect(request.headers["X-Reteno-Device-ID"] == nil)
        #expect(request.headers["X-Reteno-SDK-Version"] == "MyShop/2.1")
        #expect(request.headers.count == 3)
    }

    @Test func aLocalServerCanStandIn() throws {
        let local = try RetenoRecomsRequest(variantId: variant, accessKey: "k", baseURL: URL(string: "http://127.0.0.1:8089/")!)
        #expect(local.url.absoluteString == "http://127.0.0.1:8089/api/v1/recoms/r1105v1480/request")
        let prefixed = try RetenoRecomsRequest(variantId: variant, accessKey: "k", baseURL: URL(string: "http://localhost:9000/reteno")!)
        #expect(prefixed.url.absoluteString == "http://localhost:9000/reteno/api/v1/recoms/r1105v1480/request")
    }

    @Test(arguments: ["ftp://example.com", "/relative/path", "mobile-api.reteno.com"])
    func rejectsBaseURLsThatAreNotHTTP(text: String) {
        #expect(throws: RetenoError.invalidBaseURL(URL(string: text)!.absoluteString)) {
            try RetenoRecomsRequest(variantId: variant, accessKey: "k", baseURL: URL(string: text)!)
        }
    }

    @Test func personalRecommendationsSendOnlyEmptyProducts() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k")
        #expect(body(request) == #"{"products":[]}"#)
    }

    @Test func everyKeyPresentSortedAndExact() throws {
        let request = try RetenoRecomsRequest(
            variantId: variant, accessKey: "k", productIds: ["240-LV09", "24-WG080"], category: "Default Category/Training/Video Download",
            filters: [ProductFilter(name: "tags_activity", values: ["Yoga", "Gym"]), ProductFilter(name: "tags_sale", values: ["1"])],
            fields: .only(["productId", "name", "descr", "imageUrl", "price"]))
        #expect(body(request) == #"{"category":"Default Category/Training/Video Download","fields":["productId","name","descr","imageUrl","price"],"filters":[{"name":"tags_activity","values":["Yoga","Gym"]},{"name":"tags_sale","values":["1"]}],"products":["240-LV09","24-WG080"]}"#)
    }

    @Test(arguments: [nil, "", "   ", "\t\n"] as [String?])
    func blankCategoryIsLeftOut(category: String?) throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k", productIds: ["MH07"], category: category)
        #expect(body(request) == #"{"products":["MH07"]}"#)
    }

    @Test func categoryIsSentAsWritten() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k", category: " Gear/Bags ")
        #expect(body(request) == #"{"category":" Gear/Bags ","products":[]}"#)
    }

    @Test func emptyFiltersAreLeftOut() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k", filters: [])
        #expect(!body(request).contains("filters"))
    }

    @Test func allFieldsLeavesTheKeyOut() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k", fields: .all)
        #expect(body(request) == #"{"products":[]}"#)
    }

    @Test func productIdOnlySendsAnEmptyList() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k", fields: .productIdOnly)
        #expect(body(request) == #"{"fields":[],"products":[]}"#)
        #expect(try RetenoRecomsRequest(variantId: variant, accessKey: "k", fields: FieldSelection(fields: [])).body == request.body)
    }

    @Test func aListWithoutProductIdGetsItFirst() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k", fields: .only(["name", "price"]))
        #expect(body(request) == #"{"fields":["productId","name","price"],"products":[]}"#)
    }

    @Test func stringsAreEscaped() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "k", productIds: ["a\"b\\c"], category: "Çocuk \"Özel\"\n")
        #expect(body(request) == "{\"category\":\"Çocuk \\\"Özel\\\"\\n\",\"products\":[\"a\\\"b\\\\c\"]}")
        #expect(try JSONValue(parsing: request.body)["category"]?.stringValue == "Çocuk \"Özel\"\n")
    }

    @Test func urlRequestCarriesEverything() throws {
        let request = try RetenoRecomsRequest(variantId: variant, accessKey: "key-123", productIds: ["240-LV09"], deviceId: "d1")
        let urlRequest = request.urlRequest
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.url == request.url)
        #expect(urlRequest.httpBody == request.body)
        #expect(urlRequest.value(forHTTPHeaderField: "X-Reteno-Access-Key") == "key-123")
        #expect(urlRequest.value(forHTTPHeaderField: "X-Reteno-Device-ID") == "d1")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }
}
