import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to a loopback port, for clients no HTTP library would be: one that sends its
/// request head a byte at a time, or one with huge headers.
final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw ServerProcessError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(descriptor)
            throw ServerProcessError("could not connect to 127.0.0.1:\(port)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `text`; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, flags) } == bytes.count
    }

    /// Whether the server has closed the connection (reading now finds its end, or an error), without waiting.
    var isClosedByServer: Bool {
        var byte: UInt8 = 0
        let read = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        return read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Everything the server sends until it closes the connection or `limit` bytes have come.
    func readAll(limit: Int = 1 << 20) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
