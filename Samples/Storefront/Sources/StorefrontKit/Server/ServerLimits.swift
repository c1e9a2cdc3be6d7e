import Hummingbird
import HummingbirdCore
import NIOCore

/// The limits Hummingbird 2 itself enforces on a connection, before any route runs: the size and number
/// of request headers (NIO's HTTP decoder refuses more and the connection is closed), and how long a
/// connection may be idle, which also cuts off a client that sends its request head too slowly
/// (slowloris): the timer restarts only when a whole request head has arrived. A request's body is
/// bounded by ``StorefrontRequestContext/maxUploadSize`` and each route's own limit (the beacon reads at
/// most ``BeaconForm/maxBodyBytes``).
///
/// Hummingbird 2.28 has no separate timeout for a slow body or a slow reader of the response.
public struct ServerLimits: Sendable, Hashable {
    /// The longest header line, in bytes.
    public var maxHeaderFieldBytes = 8 * 1024
    /// All header lines together, in bytes.
    public var maxHeaderListBytes = 16 * 1024
    /// How many header lines a request may have.
    public var maxHeaderFields = 64
    /// How long a connection may be idle, or take to send a request head.
    public var idleTimeout: Duration = .seconds(30)

    /// The defaults above, with `idleTimeout`.
    public init(idleTimeout: Duration = .seconds(30)) {
        self.idleTimeout = idleTimeout
    }

    /// An HTTP/1.1 server with these limits, for `Application(router:server:)`.
    public var server: HTTPServerBuilder {
        .http1(configuration: HTTP1Channel.Configuration(
            idleTimeout: TimeAmount(idleTimeout),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: maxHeaderFieldBytes, maxHeaderListSize: maxHeaderListBytes,
                                            maxHeaderFieldCount: maxHeaderFields)))
    }
}

/// The storefront's request context: Hummingbird's basic one with a smaller upload limit (the storefront
/// takes no uploads; its largest body is a beacon's form).
public struct StorefrontRequestContext: RequestContext {
    /// Hummingbird's part of the context.
    public var coreContext: CoreRequestContextStorage

    /// The context of a request on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// The most body bytes Hummingbird's decoding helpers read: 16 KiB.
    public var maxUploadSize: Int { 16 * 1024 }
}
