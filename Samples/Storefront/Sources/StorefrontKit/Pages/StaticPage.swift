import Foundation
import Hummingbird

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

    /// `200` with the file's bytes as HTML; `404` when it cannot be read (tried again next time).
    public func response() -> Response {
        let bytes = lock.withLock {
            if self.bytes == nil, let data = try? Data(contentsOf: file) { self.bytes = ByteBuffer(bytes: data) }
            return self.bytes
        }
        guard let bytes else { return Storefront.text(.notFound, "No page at \(file.path).\n") }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: bytes))
    }
}
