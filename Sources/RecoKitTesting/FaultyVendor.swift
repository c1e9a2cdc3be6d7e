import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A vendor's events address on 127.0.0.1 that answers each request in a way its seed picks: as a vendor
/// should (200 and `{"statusCode":"SUCCESS"}`), or as networks and servers fail: the connection closed
/// before a reply or reset before the request is whole, a 503, a reply cut short, a web page instead of
/// JSON, no reply within the client's timeout, a reply that trickles without end. Plain sockets, one
/// thread per connection, so the faults lie below any HTTP library: point a tracker's destination at
/// ``baseURL`` with your own ``Transport`` to see that it reports each fault in time and loses no event.
///
/// An event counts as delivered (``confirmed``) only once a whole `SUCCESS` reply to a request carrying
/// it was written; its id is every `"eventId"` string in the request's JSON body (Segmentify's
/// `params.eventId`, Reteno's `eventId`). Each fault is answered once, in a seeded order, before any is
/// picked again, so a test that sends a handful of requests meets them all.
///
/// ```swift
/// import RecoKitTesting
/// import Testing
///
/// let vendor = try FaultyVendor(seed: 42)
/// defer { vendor.stop() }
/// let tracker = Tracker(destination: SegmentifyDestination(dataCenter: vendor.baseURL, apiKey: "k", origin: "shop.example"),
///                       store: JournalStore.memory(), transport: transport)   // yours, under test
/// let ids = try await whileRunning(tracker) {
///     let ids = try interactions.map { try tracker.track($0).description }
///     try await tracker.flush()
///     #expect(await tracker.waitUntilIdle(timeout: .seconds(120)))
///     return ids
/// }
/// #expect(vendor.unconfirmed(ids).isEmpty, "\(vendor.answersInWords)")
/// ```
public final class FaultyVendor: @unchecked Sendable {
    /// How one request is answered.
    public enum Answer: String, CaseIterable, Sendable {
        case success, successThenClose, closeBeforeReply, resetBeforeWholeRequest, unavailable, cutShort, webPage, noReply, endlessTrickle

        /// Every answer but the two good ones.
        public static let faults: [Answer] = allCases.filter { $0 != .success && $0 != .successThenClose }
    }

    /// The port on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var random: SeededRandom
    /// How many whole `SUCCESS` replies carried each event id.
    private var confirmations: [String: Int] = [:]
    private var answered: [Answer: Int] = [:]
    private var connections: [Int32] = []
    private var stopped = false
    /// The share of requests answered well, in percent.
    private let successPercent: Int
    /// The faults picked from.
    private let faults: [Answer]

    /// Faults not yet answered: each is met once, in a seeded order, before any is picked again.
    private var unmet: [Answer]

    /// The JSON body of a good answer.
    private let reply: String
    /// Whether every fault is met once before any request is answered well.
    private let faultsFirst: Bool

    /// Listens on a free port of 127.0.0.1. `successPercent` of the requests are answered well, the others
    /// with one of `faults`, as `seed` picks. A good answer is `reply`: Segmentify's events reply unless
    /// given, or a vendor's recommendations reply for testing the fetch side. With `faultsFirst`, the first
    /// requests meet every fault once (in the seeded order) before any is answered well, so that a client
    /// that sends only a few requests (a relay with one batch) surely meets them all.
    /// - Throws: ``FaultyVendorError`` when no socket can listen.
    public init(seed: UInt64, successPercent: Int = 45, faults: [Answer] = Answer.faults, faultsFirst: Bool = false,
                reply: String = #"{"statusCode":"SUCCESS"}"#) throws {
        self.reply = reply
        self.faultsFirst = faultsFirst
        random = SeededRandom(seed: seed)
        self.successPercent = successPercent
        self.faults = faults
        unmet = faults.shuffled(using: &random)
        let descriptor = socket(AF_INET, Self.socketType(SOCK_STREAM), 0)
        guard descriptor >= 0 else { throw FaultyVendorError(reason: "socket() failed: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard bound, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw FaultyVendorError(reason: "cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = descriptor
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:PORT`: a destination's base address (Segmentify's data center, Reteno's host).
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// Ids of the events a whole `SUCCESS` reply confirmed.
    public var confirmed: Set<String> { lock.withLock { Set(confirmations.keys) } }
    /// How many confirmations repeated one already given: events delivered more than once.
    public var duplicates: Int { lock.withLock { confirmations.values.reduce(0) { $0 + $1 - 1 } } }
    /// How many requests got each answer.
    public var answers: [Answer: Int] { lock.withLock { answered } }

    /// ``answers`` in words, for a test's message: `closeBeforeReply 4, cutShort 9, …`.
    public var answersInWords: String {
        answers.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
    }

    /// The faults picked from that no request has met yet.
    public var faultsNotMet: [Answer] {
        let met = answers
        return faults.filter { met[$0] == nil }
    }

    /// Those of `ids` that no whole `SUCCESS` reply confirmed, in their order.
    public func unconfirmed(_ ids: [String]) -> [String] {
        let confirmed = self.confirmed
        return ids.filter { !confirmed.contains($0) }
    }

    /// Stops accepting and closes every connection.
    public func stop() {
        let open: [Int32] = lock.withLock {
            stopped = true
            return connections
        }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let keep = lock.withLock { () -> Bool in
                if !stopped { connections.append(descriptor) }
                return !stopped
            }
            guard keep else { close(descriptor); return }
            #if canImport(Darwin)
            // Darwin's send has no MSG_NOSIGNAL: a client gone must fail the write, not raise SIGPIPE.
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            Thread.detachNewThread { [self] in serve(descriptor) }
        }
    }

    /// The next answer: a success `successPercent` of the time, else a fault (each once before any again).
    private func pick() -> Answer {
        lock.withLock {
            let answer: Answer = (faultsFirst ? unmet.popLast() : nil)
                ?? (Int.random(in: 0..<100, using: &random) < successPercent
                    ? (Bool.random(using: &random) ? .success : .successThenClose)
                    : unmet.popLast() ?? faults.randomElement(using: &random)!)
            answered[answer, default: 0] += 1
            return answer
        }
    }

    private func serve(_ descriptor: Int32) {
        defer {
            lock.withLock { connections.removeAll { $0 == descriptor } }
            close(descriptor)
        }
        var pending: [UInt8] = []
        while true {
            guard let head = readHead(descriptor, into: &pending) else { return }
            let length = contentLength(head)
            let answer = pick()
            if answer == .resetBeforeWholeRequest {
                // SO_LINGER 0: the close sends a reset, with the request's body not yet read.
                var option = linger(l_onoff: 1, l_linger: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
                return
            }
            guard let body = readBody(descriptor, length: length, pending: &pending) else { return }
            switch answer {
            case .success, .successThenClose:
                let closing = answer == .successThenClose
                let json = reply
                let reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n"
                    + (closing ? "Connection: close\r\n" : "") + "\r\n" + json
                // Counted before the reply leaves, so that a client which reads it and at once asks what
                // was confirmed finds its events; taken back when the reply could not be written whole.
                let ids = Self.eventIds(in: body)
                lock.withLock { for id in ids { confirmations[id, default: 0] += 1 } }
                guard write(descriptor, reply) else {
                    lock.withLock {
                        for id in ids {
                            confirmations[id, default: 0] -= 1
                            if confirmations[id] == 0 { confirmations[id] = nil }
                        }
                    }
                    return
                }
                if closing { return }
            case .closeBeforeReply:
                return
            case .unavailable:
                guard write(descriptor, "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 11\r\n\r\nunavailable") else { return }
            case .cutShort:
                _ = write(descriptor, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"statusCode\"")
                return
            case .webPage:
                let page = "<!doctype html><html><body><h1>Welcome</h1></body></html>"
                guard write(descriptor, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: \(page.utf8.count)\r\n\r\n\(page)") else { return }
            case .noReply:
                // Holds the connection, saying nothing, until the client gives up and closes it.
                var byte: UInt8 = 0
                _ = recv(descriptor, &byte, 1, 0)
                return
            case .endlessTrickle:
                // A head, then a byte of body now and then, for far longer than any timeout.
                guard write(descriptor, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n") else { return }
                for _ in 0..<3000 {
                    if lock.withLock({ stopped }) || !write(descriptor, " ") { return }
                    usleep(100_000)
                }
                return
            case .resetBeforeWholeRequest:
                return
            }
        }
    }

    /// Reads up to the end of a request head; the head, or nil when the connection ended first.
    private func readHead(_ descriptor: Int32, into pending: inout [UInt8]) -> String? {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: end) {
                let head = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<range.upperBound)
                return head
            }
            guard readMore(descriptor, into: &pending) else { return nil }
        }
    }

    private func readBody(_ descriptor: Int32, length: Int, pending: inout [UInt8]) -> [UInt8]? {
        while pending.count < length {
            guard readMore(descriptor, into: &pending) else { return nil }
        }
        let body = Array(pending[..<length])
        pending.removeSubrange(..<length)
        return body
    }

    private func readMore(_ descriptor: Int32, into pending: inout [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            pending += buffer[..<count]
            return true
        }
    }

    private func contentLength(_ head: String) -> Int {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return 0
    }

    private func write(_ descriptor: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let wrote = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let wrote = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, 0) }
            #endif
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { return false }
            offset += wrote
        }
        return true
    }

    /// A socket type as `socket` takes it: Glibc spells `SOCK_STREAM` as an enum, Darwin as an `Int32`.
    private static func socketType<Type: RawRepresentable>(_ type: Type) -> Int32 where Type.RawValue: BinaryInteger {
        Int32(type.rawValue)
    }

    private static func socketType(_ type: Int32) -> Int32 { type }

    /// Every `"eventId"` string in a JSON body, at any depth.
    static func eventIds(in body: [UInt8]) -> Set<String> {
        guard let json = try? JSONSerialization.jsonObject(with: Data(body)) else { return [] }
        var ids: Set<String> = []
        func visit(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, member) in object {
                    if key == "eventId", let id = member as? String { ids.insert(id) } else { visit(member) }
                }
            } else if let array = value as? [Any] {
                array.forEach(visit)
            }
        }
        visit(json)
        return ids
    }
}

/// Why a ``FaultyVendor`` could not start.
public struct FaultyVendorError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is: compare with the static members (`error.kind == .cannotListen`).
    /// New kinds may be added; a `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// No socket could be made, bound to 127.0.0.1 or listened on (out of descriptors or ports).
        public static let cannotListen = Kind(name: "cannotListen")
        /// The kind's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind { .cannotListen }
    /// What failed, with the system's words.
    public let reason: String
    public var description: String { "FaultyVendor: \(reason)" }
}
