import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The minimal HTTP sink (`Benchmarks/Sink/sink.c`), built with the C compiler when `RECOKIT_SINK` does
/// not name a built one, and run on a free port of 127.0.0.1.
final class Sink {
    let process = Process()
    let port: Int

    init() throws {
        var executable = ProcessInfo.processInfo.environment["RECOKIT_SINK"] ?? ""
        if executable.isEmpty || !FileManager.default.isExecutableFile(atPath: executable) {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sink/sink.c").standardized
            executable = NSTemporaryDirectory() + "/recokit-sink-\(getpid())"
            let compiler = Process()
            compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            compiler.arguments = ["cc", "-O2", "-pthread", "-o", executable, source.path]
            try compiler.run()
            compiler.waitUntilExit()
            guard compiler.terminationStatus == 0 else { throw SinkError("cannot compile \(source.path) with cc") }
        }
        process.executableURL = URL(fileURLWithPath: executable)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SinkError("the sink did not print its port")
        }
        self.port = port
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

struct SinkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes ready-made HTTP requests to the sink over `connections` keep-alive connections at once and
/// reads each reply: the floor under any delivery of the same bytes.
func writeRequests(_ requests: [[UInt8]], port: Int, connections: Int) throws {
    let failures = ResultBox<String>()
    DispatchQueue.concurrentPerform(iterations: connections) { connection in
        let sink: SinkConnection
        do { sink = try SinkConnection(port: port) } catch { failures.value = "\(error)"; return }
        for index in stride(from: connection, to: requests.count, by: connections) {
            do { _ = try sink.exchange(requests[index]) } catch { failures.value = "\(error)"; return }
        }
    }
    if let failure = failures.value { throw SinkError(failure) }
}

/// One keep-alive connection to the sink, used by one thread at a time: a request written whole, its
/// reply read whole (the sink's reply is one small write ending in `}`).
final class SinkConnection: @unchecked Sendable {
    private let fd: Int32
    private var reply = [UInt8](repeating: 0, count: 4096)

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw SinkError("connect failed")
        }
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    /// Writes `request` and returns the reply's bytes.
    func exchange(_ request: [UInt8]) throws -> ArraySlice<UInt8> {
        let sent = request.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let wrote = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if wrote <= 0 { return false }
                offset += wrote
            }
            return true
        }
        guard sent else { throw SinkError("write failed") }
        var got = 0
        repeat {
            let count = reply.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if count <= 0 { throw SinkError("read failed") }
            got += count
        } while reply[got - 1] != UInt8(ascii: "}")
        return reply[..<got]
    }
}

/// The request the tracker's destination sends, as HTTP/1.1 bytes.
func httpRequest(body: Data, port: Int) -> [UInt8] {
    let head = "POST /add/events/v1.json?apiKey=k HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
        + "Accept: application/json\r\nOrigin: shop.example\r\nContent-Length: \(body.count)\r\n\r\n"
    return Array(head.utf8) + Array(body)
}
