import Foundation
import Hummingbird

/// A reply the stand-in vendor gives instead of its sample payload, to show the storefront surviving a
/// broken or hostile vendor: any status, content type and bytes, sent at once or in chunks with a pause
/// before each (a vendor whose body streams in slowly).
public struct ScriptedReply: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The `Content-Type`.
    public var contentType: String
    /// The body.
    public var body: Data
    /// Bytes per chunk when streamed; nil sends the body at once.
    public var chunkSize: Int?
    /// The pause before each chunk when streamed.
    public var chunkDelay: Duration

    /// A reply with these bytes.
    public init(status: Int = 200, contentType: String = "application/json", body: Data, chunkSize: Int? = nil, chunkDelay: Duration = .zero) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.chunkSize = chunkSize
        self.chunkDelay = chunkDelay
    }

    func response() -> Response {
        let headers: HTTPFields = [.contentType: contentType]
        let status = HTTPResponse.Status(code: status)
        guard let chunkSize, chunkSize > 0 else {
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        let body = [UInt8](self.body)
        let delay = chunkDelay
        return Response(status: status, headers: headers, body: ResponseBody { writer in
            var offset = 0
            while offset < body.count {
                try await Task.sleep(for: delay)
                let end = min(offset + chunkSize, body.count)
                try await writer.write(ByteBuffer(bytes: body[offset..<end]))
                offset = end
            }
            try await writer.finish(nil)
        })
    }
}
