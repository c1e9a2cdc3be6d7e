import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import RecoTracking
import Testing
@testable import StorefrontKit

/// A vendor's events address that redirects. AsyncHTTPClient follows a 301, 302 or 303 after a POST as a
/// GET without the body; the new address's 200 then answered for events it never received, and the
/// storefront's tracker counted them delivered. The transport answers with the redirect instead (the
/// tracker keeps the events); a 307 or 308, sent on with its body, stands.
@Suite("AsyncHTTPClientTransport and redirects")
struct TransportRedirectTests {
    /// Bodies the `/moved` address received, as `METHOD length`.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aPostThatARedirectWouldEmptyGetsTheRedirect(_ code: Int) async throws {
        let received = Received()
        let router = Router()
        router.post("/add/events") { _, _ in
            Response(status: .init(code: code), headers: [.location: "/moved/add/events"], body: .init(byteBuffer: ByteBuffer(string: #"{"statusCode":"SUCCESS"}"#)))
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/moved/add/events", method: method) { request, _ in
                let body = try await request.body.collect(upTo: 1 << 20)
                received.add("\(method) \(body.readableBytes)")
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"statusCode":"SUCCESS"}"#)))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let body = Data(#"[{"name":"INTERACTION","type":"click","instanceId":"rec_1","productId":"P-1","userId":"u","sessionId":"s"}]"#.utf8)
            let request = VendorRequest(url: URL(string: "http://127.0.0.1:\(port)/add/events")!,
                                          headers: [("Content-Type", "application/json")], body: body)
            let reply = try await AsyncHTTPClientTransport().send(request, timeout: .seconds(10))
            if code == 307 || code == 308 {
                // Sent on whole: the new address's answer is the vendor's.
                #expect(reply.status == 200)
                #expect(received.all == ["POST \(body.count)"])
            } else {
                #expect(reply.status == code)
                #expect(reply.headers["location"] == "/moved/add/events")
                #expect(DeliveryVerdict.standard(for: reply, now: Date()).description.contains("the vendor redirects to /moved/add/events"))
            }
        }
    }
}
