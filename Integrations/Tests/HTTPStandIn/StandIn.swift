import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP server on 127.0.0.1 for this package's tests: it answers each request as `answer` says, writing the
/// reply's body in `pieces` with `pause` between them (a vendor that trickles), and keeps every request
/// it received.
public final class StandIn: @unchecked Sendable {
    /// A request as it was received.
    public struct Request: Sendable {
        /// `GET`, `POST`, …
        public var method: String
        /// The path and query.
        public var uri: String
        /// Header names and values, in order.
        public var headers: [(String, String)]
        /// The body's bytes.
        public var body: [UInt8]
    }

    /// How a request is answered.
    public struct Reply: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Header names and values (`Content-Length` is added).
        public var headers: [(String, String)]
        /// The body's bytes.
        public var body: [UInt8]
        /// The body is written in this many pieces…
        public var pieces: Int
        /// …with this pause between them.
        public var pause: TimeAmount
        /// Sent as `Content-Length` instead of the body's own length, when set.
        public var announcedLength: String?

        /// A reply.
        public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], pieces: Int = 1, pause: TimeAmount = .zero,
                    announcedLength: String? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.pieces = pieces
            self.pause = pause
            self.announcedLength = announcedLength
        }
    }

    private let lock = NSLock()
    private var received: [Request] = []
    private let channel: any Channel
    /// The port on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var base: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// Every request received so far, in order.
    public var requests: [Request] { lock.withLock { received } }

    /// Listens on a free port of 127.0.0.1, answering each request as `answer` says.
    public init(_ answer: @escaping @Sendable (Request) -> Reply) throws {
        let box = Box()
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(answer: answer, record: { box.standIn?.record($0) }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
        box.standIn = self
    }

    private final class Box: @unchecked Sendable { weak var standIn: StandIn? }

    private func record(_ request: Request) { lock.withLock { received.append(request) } }

    /// Stops listening.
    public func stop() { try? channel.close().wait() }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let answer: @Sendable (Request) -> Reply
        let record: @Sendable (Request) -> Void
        var head: HTTPRequestHead?
        var body: [UInt8] = []

        init(answer: @escaping @Sendable (Request) -> Reply, record: @escaping @Sendable (Request) -> Void) {
            self.answer = answer
            self.record = record
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = []
            case .body(var buffer):
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .end:
                guard let head else { return }
                let request = Request(method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: body)
                record(request)
                respond(answer(request), context: context)
            }
        }

        private func respond(_ reply: Reply, context: ChannelHandlerContext) {
            var headers = HTTPHeaders(reply.headers)
            headers.replaceOrAdd(name: "Content-Length", value: reply.announcedLength ?? String(reply.body.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: reply.status), headers: headers))),
                          promise: nil)
            let size = max(1, (reply.body.count + reply.pieces - 1) / max(1, reply.pieces))
            let pieces = stride(from: 0, to: reply.body.count, by: size).map { Array(reply.body[$0..<min(reply.body.count, $0 + size)]) }
            let loop = context.eventLoop
            let channel = context.channel
            @Sendable func write(_ index: Int) {
                guard index < pieces.count else {
                    channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
                    return
                }
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: pieces[index]))), promise: nil)
                loop.scheduleTask(in: reply.pause) { write(index + 1) }
            }
            context.flush()
            write(0)
        }
    }
}
