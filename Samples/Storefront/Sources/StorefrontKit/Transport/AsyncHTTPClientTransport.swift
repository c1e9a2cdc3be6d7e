import AsyncHTTPClient
import Foundation
import NIOCore
import RecoTracking

/// RecoKit's ``Transport`` over AsyncHTTPClient (SwiftNIO), the HTTP client a Hummingbird server
/// already has at hand: one protocol conformance, and both the page's recommendation requests and
/// the trackers use it. (RecoKit's own `URLSessionTransport` works too: `--transport urlsession`.)
public struct AsyncHTTPClientTransport: Transport {
    let client: HTTPClient

    /// A transport over `client` (the process-wide shared client by default).
    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    public func send(_ request: TrackingRequest, timeout: Duration) async throws -> TrackingReply {
        var http = HTTPClientRequest(url: request.url.absoluteString)
        http.method = .RAW(value: request.method)
        for header in request.headers { http.headers.add(name: header.name, value: header.value) }
        if !request.body.isEmpty { http.body = .bytes(ByteBuffer(bytes: request.body)) }
        let (seconds, attoseconds) = timeout.components
        let response = try await client.execute(http, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name] = header.value }
        return TrackingReply(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    }
}
