import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP transport over Foundation's `URLSession`: one shared session for every tracker and client, no
/// cookies or cache, a per-request timeout, and cancellation that aborts the request.
public final class URLSessionTransport: Transport, @unchecked Sendable {
    /// The transport all trackers and clients share unless given another.
    public static let shared = URLSessionTransport()

    private let session: URLSession

    /// A transport with its own session, allowing `connectionsPerHost` connections to one host.
    public init(connectionsPerHost: Int = 8) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    /// Sends `request`; gives up with `URLError(.timedOut)` when no whole reply has come within `timeout`.
    ///
    /// Foundation on Linux misfires below a second: a request whose `timeoutInterval` is under one second
    /// can fail as timed out at once, a prompt reply notwithstanding (seen under load). So URLSession
    /// gets whole seconds (at least one) as a backstop, and the timeout itself is kept here: the request
    /// races a timer, and the loser is cancelled.
    public func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up))
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        let session = self.session
        let prepared = urlRequest
        return try await withThrowingTaskGroup(of: VendorReply.self) { group in
            group.addTask { try await Self.perform(prepared, on: session) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw URLError(.timedOut)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// One data task, cancelled when the calling task is.
    private static func perform(_ urlRequest: URLRequest, on session: URLSession) async throws -> VendorReply {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<VendorReply, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error { continuation.resume(throwing: error); return }
                    guard let http = response as? HTTPURLResponse else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                        return
                    }
                    var headers: [String: String] = [:]
                    for (key, value) in http.allHeaderFields {
                        if let key = key as? String, let value = value as? String { headers[key] = value }
                    }
                    continuation.resume(returning: VendorReply(status: http.statusCode, headers: headers, body: data ?? Data()))
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Holds the data task so cancellation can reach it from another thread.
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func set(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelNow = cancelled
        lock.unlock()
        if cancelNow { task.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
