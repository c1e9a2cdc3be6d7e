import Foundation
import RecoTracking

/// The smallest transport that delivers to the sink: keep-alive connections of plain sockets, one request
/// at a time on each, the blocking write and read on a Dispatch worker thread (never on a thread of
/// Swift's cooperative pool). Not a general HTTP client (it knows the sink's replies); beside
/// `URLSessionTransport` it shows what the tracker itself delivers when the transport costs next to nothing.
final class SocketTransport: Transport, @unchecked Sendable {
    private let port: Int
    private let lock = NSLock()
    private var idle: [SinkConnection] = []

    init(port: Int) { self.port = port }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        let connection = try lock.withLock { idle.popLast() } ?? SinkConnection(port: port)
        let bytes = httpRequest(body: request.body, port: port)
        let reply: ArraySlice<UInt8> = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try connection.exchange(bytes) })
            }
        }
        lock.withLock { idle.append(connection) }
        // "HTTP/1.1 200 OK…": the status is the three digits after the first space.
        guard let space = reply.firstIndex(of: UInt8(ascii: " ")), reply.count >= space + 4,
              let status = Int(String(decoding: reply[(space + 1)..<(space + 4)], as: UTF8.self)) else {
            throw SinkError("unreadable reply from the sink")
        }
        let body = reply.firstRange(of: Array("\r\n\r\n".utf8)).map { reply[$0.upperBound...] } ?? []
        return VendorReply(status: status, body: Data(body))
    }
}
