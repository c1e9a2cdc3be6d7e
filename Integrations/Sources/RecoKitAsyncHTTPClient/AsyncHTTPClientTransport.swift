import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RecoHTTP
import Tracing

/// RecoKit's `Transport` over AsyncHTTPClient (SwiftNIO), the HTTP client Swift servers use: for a page's
/// recommendation requests and for trackers alike.
///
/// ```swift
/// let client = RecommendationsClient(transport: AsyncHTTPClientTransport.shared)
/// let tracker = Tracker(destination: segmentify, store: store, transport: AsyncHTTPClientTransport.shared)
/// ```
///
/// - **The whole exchange is bounded**: a request's timeout covers connecting, sending, the reply's head
///   and its whole body, so a vendor that trickles a byte now and then cannot hold a sender. The bound is a
///   timer on the connection's event loop: no task is made per request.
/// - **The reply is bounded**: its body is read as it streams in and given up (``TransportError``, kind
///   `replyTooLarge`) once it passes ``maxReplyBytes`` (or the request's own `maxReplyBytes`, when
///   smaller), or at once when its `Content-Length` says it will.
/// - **No redirect is followed**: a 3xx is the answer (a tracker keeps the events and says where the
///   vendor points), never a request sent on elsewhere with the body and the vendor's key headers.
/// - Replies are not decompressed (nothing asks for `gzip`), so a small reply cannot become a large one.
/// - **Requests are traced only when the process has a tracer**: with none bootstrapped
///   (`InstrumentationSystem.bootstrap`), AsyncHTTPClient's no-op tracer is turned off, since it would
///   still name a span for every request (printing its method through reflection, on the event loop).
///   A tracer given in `configuration.tracing` is kept.
public final class AsyncHTTPClientTransport: Transport {
    /// A transport for the whole process, on the process's shared event loops; never shut down.
    public static let shared = AsyncHTTPClientTransport()

    /// The client: its redirects are turned off, whatever the configuration given.
    public let client: HTTPClient
    /// The most bytes of a reply's body read. 16 MiB unless given.
    public let maxReplyBytes: Int

    /// A transport with a client of its own on `eventLoopGroup`, configured as `configuration` says but that
    /// it follows no redirect. ``shutdown()`` closes its connections when you choose; a transport let go
    /// without it closes them on its way out (``shared`` is never let go).
    public init(configuration: HTTPClient.Configuration = HTTPClient.Configuration(),
                eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup, maxReplyBytes: Int = 16 << 20) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        if configuration.tracing.tracer is NoOpTracer { configuration.tracing.tracer = nil }
        client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.maxReplyBytes = max(1, maxReplyBytes)
    }

    /// Closes the client's connections; sending afterwards fails.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    deinit {
        // The client keeps itself alive until its shutdown is done; one already shut down says so, harmlessly.
        client.shutdown().whenComplete { _ in }
    }

    /// Sends `request` and reads its whole reply within `timeout`.
    /// - Throws: ``TransportError`` (kind `replyTooLarge`) past the reply limit; AsyncHTTPClient's
    ///   `HTTPClientError.deadlineExceeded` past `timeout`; its other errors for a connection refused,
    ///   reset or closed.
    public func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        var http = try HTTPClient.Request(url: request.url.absoluteString, method: HTTPMethod(rawValue: request.method))
        for header in request.headers { http.headers.add(name: header.name, value: header.value) }
        if !request.body.isEmpty { http.body = .bytes(request.body) }
        let limit = min(maxReplyBytes, max(1, request.maxReplyBytes ?? .max))
        let (seconds, attoseconds) = timeout.components
        let deadline = NIODeadline.now() + .nanoseconds(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        let task = client.execute(request: http, delegate: ResponseAccumulator(request: http, maxBodySize: limit), deadline: deadline)
        let response: HTTPClient.Response
        do {
            response = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch is ResponseAccumulator.ResponseTooBigError {
            throw TransportError.replyTooLarge(limit: limit)
        }
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name] = header.value }
        return VendorReply(status: Int(response.status.code), headers: headers,
                           body: response.body.map { Data($0.readableBytesView) } ?? Data())
    }
}
