import AsyncHTTPClient
import Foundation
import NIOCore
import RecoTracking

/// RecoKit's ``Transport`` over AsyncHTTPClient (SwiftNIO), the HTTP client a Hummingbird server
/// already has at hand: one protocol conformance, and both the page's recommendation requests and
/// the trackers use it. (RecoKit's own `URLSessionTransport` works too: `--transport urlsession`.)
///
/// A reply's body is read as it streams in and given up (RecoKit's `TransportError`, kind
/// `replyTooLarge`) as soon as it passes ``maxReplyBytes`` (or the request's own `maxReplyBytes`,
/// when smaller), or at once when its `Content-Length` says it will: a hostile or broken vendor
/// cannot make the server hold more than that for one reply.
public struct AsyncHTTPClientTransport: Transport {
    let client: HTTPClient
    /// The most bytes of a reply's body read.
    public let maxReplyBytes: Int

    /// A transport over `client` (the process-wide shared client by default), reading at most
    /// `maxReplyBytes` of a reply (4 MiB by default).
    public init(client: HTTPClient = .shared, maxReplyBytes: Int = VendorSettings.defaultMaxReplyBytes) {
        self.client = client
        self.maxReplyBytes = max(1, maxReplyBytes)
    }

    /// Sends `request` and reads its reply, at most ``maxReplyBytes`` of body, within `timeout`: the
    /// whole exchange, the reply's body included. (AsyncHTTPClient's own deadline ends with the reply's
    /// head: a body that trickled in a byte now and then held a tracker's sender, and with a few such
    /// replies every sender, for as long as the vendor kept it up.)
    /// - Throws: `TransportError.replyTooLarge` past the limit; `HTTPClientError.deadlineExceeded` past
    ///   `timeout`; AsyncHTTPClient's errors otherwise.
    public func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        try await withThrowingTaskGroup(of: VendorReply.self) { group in
            group.addTask { try await exchange(request, timeout: timeout) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw HTTPClientError.deadlineExceeded
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    private func exchange(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        var http = HTTPClientRequest(url: request.url.absoluteString)
        http.method = .RAW(value: request.method)
        for header in request.headers { http.headers.add(name: header.name, value: header.value) }
        if !request.body.isEmpty { http.body = .bytes(ByteBuffer(bytes: request.body)) }
        let (seconds, attoseconds) = timeout.components
        let response = try await client.execute(http, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        // AsyncHTTPClient follows a 301 or 302 after a POST, and any 303, as a GET without the body: the
        // final reply answers for a request that carried nothing (a tracker would count its events
        // delivered). The redirect itself is the answer then (a tracker keeps the events and says where
        // the vendor points). A 307 or 308 is sent on with its body, and its final reply stands.
        if !request.body.isEmpty, let bodiless = response.history.firstIndex(where: { $0.request.body == nil }), bodiless > 0 {
            let redirect = response.history[bodiless - 1].responseHead
            var headers: [String: String] = [:]
            for header in redirect.headers { headers[header.name] = header.value }
            return VendorReply(status: Int(redirect.status.code), headers: headers, body: Data())
        }
        let limit = min(maxReplyBytes, max(1, request.maxReplyBytes ?? .max))
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw TransportError.replyTooLarge(limit: limit)
        }
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name] = header.value }
        return VendorReply(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    }
}
