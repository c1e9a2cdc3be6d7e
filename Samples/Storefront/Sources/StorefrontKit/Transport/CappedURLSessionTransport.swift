import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RecoTracking

/// RecoKit's ``Transport`` over Foundation's `URLSession` (`--transport urlsession`), reading a reply's
/// body as it arrives and giving up (``ReplyTooLarge``) as soon as it passes ``maxReplyBytes``, or at
/// once when the reply's length says it will. (RecoKit's own `URLSessionTransport` lets Foundation
/// gather the whole body first, which a vendor's hostile reply can make as large as it likes.)
///
/// The request is cancelled with its task. Its timeout goes to Foundation in whole seconds (at least
/// one): the page's own, shorter budget is kept by RecoPage's `RecommendationsClient`.
public final class CappedURLSessionTransport: Transport, @unchecked Sendable {
    /// The most bytes of a reply's body read.
    public let maxReplyBytes: Int
    private let session: URLSession
    private let replies: Replies

    /// A transport with its own session, reading at most `maxReplyBytes` of a reply (4 MiB by default).
    public init(maxReplyBytes: Int = VendorSettings.defaultMaxReplyBytes, connectionsPerHost: Int = 8) {
        self.maxReplyBytes = max(1, maxReplyBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        replies = Replies()
        session = URLSession(configuration: configuration, delegate: replies, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends `request` and reads its reply, at most ``maxReplyBytes`` of body.
    /// - Throws: ``ReplyTooLarge`` past the limit; Foundation's `URLError`s otherwise.
    public func send(_ request: TrackingRequest, timeout: Duration) async throws -> TrackingReply {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        urlRequest.timeoutInterval = TimeInterval(max(1, timeout.components.seconds + (timeout.components.attoseconds > 0 ? 1 : 0)))
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        let task = session.dataTask(with: urlRequest)
        let limit = maxReplyBytes
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                replies.start(task, limit: limit, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The session's delegate: gathers each task's bytes up to its limit and finishes its caller once.
    private final class Replies: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private struct Pending {
            var continuation: CheckedContinuation<TrackingReply, any Error>
            var limit: Int
            var body = Data()
            var response: HTTPURLResponse?
        }

        private let lock = NSLock()
        private var pending: [Int: Pending] = [:]

        func start(_ task: URLSessionTask, limit: Int, continuation: CheckedContinuation<TrackingReply, any Error>) {
            lock.withLock { pending[task.taskIdentifier] = Pending(continuation: continuation, limit: limit) }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            let tooLarge = lock.withLock { () -> Int? in
                guard let limit = pending[dataTask.taskIdentifier]?.limit else { return nil }
                pending[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
                return response.expectedContentLength > Int64(limit) ? limit : nil
            }
            if let tooLarge {
                finish(dataTask, with: .failure(ReplyTooLarge(limit: tooLarge)))
                completionHandler(.cancel)
            } else {
                completionHandler(.allow)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let overLimit: Int? = lock.withLock {
                guard var entry = pending[dataTask.taskIdentifier] else { return nil }
                guard entry.body.count + data.count <= entry.limit else { return entry.limit }
                entry.body.append(data)
                pending[dataTask.taskIdentifier] = entry
                return nil
            }
            if let overLimit {
                finish(dataTask, with: .failure(ReplyTooLarge(limit: overLimit)))
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if let error {
                finish(task, with: .failure(error))
                return
            }
            let entry = lock.withLock { pending[task.taskIdentifier] }
            guard let entry else { return }
            guard let http = entry.response ?? task.response as? HTTPURLResponse else {
                finish(task, with: .failure(URLError(.badServerResponse)))
                return
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let key = key as? String, let value = value as? String { headers[key] = value }
            }
            finish(task, with: .success(TrackingReply(status: http.statusCode, headers: headers, body: entry.body)))
        }

        /// Resumes the task's caller, the first time only.
        private func finish(_ task: URLSessionTask, with result: Result<TrackingReply, any Error>) {
            let entry = lock.withLock { pending.removeValue(forKey: task.taskIdentifier) }
            entry?.continuation.resume(with: result)
        }
    }
}
