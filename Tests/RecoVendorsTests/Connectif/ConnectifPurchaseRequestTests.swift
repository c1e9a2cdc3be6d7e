import Foundation
import Testing
@testable import RecoVendors
import RecoTracking

/// Connectif's public "create purchase" API: the request byte for byte, and the sender's reading of
/// the replies.
@Suite("Connectif purchase over the HTTP API")
struct ConnectifPurchaseRequestTests {
    static let purchase = Purchase(
        purchaseId: "p-1", cartId: "c-1", totalQuantity: 1, totalPrice: ConnectifFixtures.money("36.11"), products: [ConnectifFixtures.socks],
        purchaseDate: ConnectifFixtures.date("2025-03-14T09:26:53Z"), paymentMethod: "Card", sourceName: "Web", sourceType: .digitalStore)

    @Test func theRequestByteForByte() throws {
        let request = try ConnectifPurchaseRequest(purchase: Self.purchase, contact: .email("ana@example.com"), apiKey: "id:secret")
        let http = request.request
        #expect(http.method == "POST")
        #expect(http.url.absoluteString == "https://api.connectif.cloud/purchases/?triggerPurchaseEvent=true")
        #expect(http.headers.map(\.name) == ["Authorization", "Content-Type", "Accept"])
        #expect(http.headers.map(\.value) == ["apiKey id:secret", "application/json", "application/json"])
        #expect(String(decoding: http.body, as: UTF8.self) == """
            {"cartId":"c-1","contactEmail":"ana@example.com","paymentMethod":"Card","products":[{"name":"Merino running socks","price":36.11,"productId":"59a3195ba1a562d4979fbcb7","quantity":1,"unitPrice":36.11}],"purchaseDate":"2025-03-14T09:26:53Z","purchaseId":"p-1","totalPrice":36.11,"totalQuantity":1}
            """)
    }

    @Test func anExternalIdAndNoWorkflow() throws {
        let request = try ConnectifPurchaseRequest(purchase: Self.purchase, contact: .externalId("crm-42"), apiKey: "k", triggerPurchaseEvent: false,
                                                   baseURL: URL(string: "http://127.0.0.1:9000/")!)
        #expect(request.url.absoluteString == "http://127.0.0.1:9000/purchases/?triggerPurchaseEvent=false")
        #expect(request.bodyJSON["contactExternalId"] == "crm-42")
        #expect(request.bodyJSON["contactEmail"] == nil)
    }

    @Test func refusedBeforeSending() {
        let blank = #expect(throws: ConnectifError.self) { try ConnectifPurchaseRequest(purchase: Self.purchase, contact: .email(" "), apiKey: "k") }
        #expect(blank?.field == "contactEmail")
        var bad = Self.purchase
        bad.purchaseId = " "
        let invalid = #expect(throws: ConnectifError.self) { try ConnectifPurchaseRequest(purchase: bad, contact: .email("a@b.c"), apiKey: "k") }
        #expect(invalid?.field == "purchaseId")
    }

    @Test(arguments: [
        (201, #"{"id":"x"}"#, nil),
        (400, #"{"status":400,"title":"Bad Request","detail":"Contact ana@example.com does not exist.","code":"E0101"}"#,
         "the event was not delivered: HTTP 400 E0101: Contact ana@example.com does not exist."),
        (401, "", "the event was not delivered: HTTP 401: "),
        (429, #"{"title":"Too Many Requests"}"#, "the event was not delivered: HTTP 429: Too Many Requests"),
        // A wrong address on a website whose pages answer any path: no delivery.
        (200, "\n<!DOCTYPE html><html><body>Welcome</body></html>",
         "the event was not delivered: HTTP 200: the address answered with a web page, not Connectif's API (is it the right address?)"),
    ] as [(Int, String, String?)])
    func theSenderReadsTheReply(status: Int, body: String, expected: String?) async throws {
        let transport = OneReply(VendorReply(status: status, body: Data(body.utf8)))
        let connectif = Connectif(sender: ConnectifAPISender(apiKey: "k", contact: .email("ana@example.com"), transport: transport),
                                  context: ConnectifFixtures.context)
        let result = await connectif.sendPurchase(Self.purchase)
        switch result {
        case .success: #expect(expected == nil)
        case .failure(let error): #expect(error.description == expected)
        }
        #expect(transport.sent?.url.absoluteString == "https://api.connectif.cloud/purchases/?triggerPurchaseEvent=true")
    }
}

/// Answers every request with one reply and remembers the last request.
final class OneReply: Transport, @unchecked Sendable {
    private let lock = NSLock()
    private let reply: VendorReply
    private var last: VendorRequest?
    init(_ reply: VendorReply) { self.reply = reply }
    var sent: VendorRequest? { lock.withLock { last } }
    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        lock.withLock { last = request }
        return reply
    }
}
