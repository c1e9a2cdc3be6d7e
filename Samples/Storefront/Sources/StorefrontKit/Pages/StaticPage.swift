import Foundation
import Hummingbird
import Logging

/// A file served as is, read once at its first request: `measure.sh`'s reference, the bytes of a page
/// with blocks sent by the same server with none of the work (no vendor, no rendering, no tracking).
public final class StaticPage: @unchecked Sendable {
    /// The file.
    public let file: URL
    private let lock = NSLock()
    private var bytes: ByteBuffer?

    /// Serves `file`.
    public init(file: URL) {
        self.file = file
    }

    /// `200` with the file's bytes as HTML; a generic `404` with the request id when it cannot be read
    /// (tried again next time): the file's path goes to the log only, never to the visitor.
    public func response(requestId: String, logger: Logger) -> Response {
        let bytes = lock.withLock {
            if self.bytes == nil, let data = try? Data(contentsOf: file) { self.bytes = ByteBuffer(bytes: data) }
            return self.bytes
        }
        guard let bytes else {
            logger.warning("static page not readable: \(file.path)", metadata: [RequestLogging.metadataKey: .string(requestId)])
            return ErrorPages<BasicRequestContext>.page(.notFound, requestId: requestId)
        }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: bytes))
    }
}
