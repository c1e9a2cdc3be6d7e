import Foundation
import Testing
import RecoVendors

/// `RetenoRecomsRequest` as RecoHTTP's request value, byte for byte.
@Suite("Reteno recoms request as a VendorRequest")
struct RetenoRecomsHTTPRequestTests {
    @Test func aProductBasedRequest() throws {
        let recoms = try RetenoRecomsRequest(variantId: RetenoVariantId("r1107v1482"), accessKey: "k-123", productIds: ["240-LV09", "241-LV10"],
                                             category: "Shoes", filters: [ProductFilter(name: "brand", values: ["asics", "nike"])],
                                             fields: .only(["name", "price"]), deviceId: "device-9")
        let http = recoms.request
        #expect(http.method == "POST")
        #expect(http.url.absoluteString == "https://mobile-api.reteno.com/api/v1/recoms/r1107v1482/request")
        #expect(http.headers.map(\.name) == ["Content-Type", "X-Reteno-Access-Key", "X-Reteno-Device-ID", "X-Reteno-SDK-Version"])
        #expect(http.headers.map(\.value) == ["application/json", "k-123", "device-9", RetenoRecomsRequest.defaultSDKVersion])
        #expect(String(decoding: http.body, as: UTF8.self) == """
            {"category":"Shoes","fields":["productId","name","price"],"filters":[{"name":"brand","values":["asics","nike"]}],"products":["240-LV09","241-LV10"]}
            """)
    }

    @Test func aPersonalRequestWithEveryField() throws {
        let recoms = try RetenoRecomsRequest(variantId: RetenoVariantId("r1105v1480"), accessKey: "k", category: "  ",
                                             baseURL: URL(string: "http://127.0.0.1:8080/reteno/")!)
        let http = recoms.request
        #expect(http.url.absoluteString == "http://127.0.0.1:8080/reteno/api/v1/recoms/r1105v1480/request")
        #expect(http.header("X-Reteno-Device-ID") == nil)
        #expect(String(decoding: http.body, as: UTF8.self) == #"{"products":[]}"#)
    }
}
