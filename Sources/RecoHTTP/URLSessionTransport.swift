import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP transport over Foundation's `URLSession`: no cookies or cache, a per-request timeout,
/// cancellation that aborts the request, and a bound on how much of a reply is read.
///
/// A redirect is followed by a request without a body (GET, HEAD) only. A request with one (every
/// tracking request) gets the 3xx reply itself: Foundation would send it on without its body, and the
/// new address's 200 would answer for events it never received.
///
/// A reply's body is read as it arrives, and given up (``TransportError/Kind/replyTooLarge``) as soon as
/// it passes the request's ``VendorRequest/maxReplyBytes`` or the transport's ``maxReplyBytes``,
/// whichever is smaller, or at once when its announced length says it will: a vendor's reply cannot
/// make the process hold more than that, however long it streams.
///
/// The caller is answered as soon as the answer is known (a whole reply, the limit passed, its timeout,
/// its task cancelled), never later because of Foundation: on Linux a data task cancelled in the middle
/// of its body may never report its end, and the session that ran it may then stall later requests. So
/// the session that had to give up a reply past its limit is retired (it finishes what it has under
/// way) and later requests go to a fresh one. Nor does a send hold the caller's thread: every call into
/// Foundation that may wait is made on a queue of the transport's own (see `Replies`), so a reply that
/// keeps Foundation busy cannot stop the process's other tasks, their timers included.
///
/// Two limits are Foundation's on Linux and cannot be mended from here. A body that comes faster than
/// about 300 MB a second on one connection (a peer on the same machine) can keep Foundation from ever
/// carrying out the cancellation, and its queue of chunks for the delegate then grows without bound;
/// up to 200 MB a second, measured, the transfer stops within milliseconds of the limit. And a 3xx
/// reply's body never reaches the delegate: Foundation gathers it itself, so only the request's timeout
/// bounds it, and while it streams the work queue all of the process's sessions share is busy copying
/// it (the caller is still answered at its timeout; other requests wait). And Foundation decompresses a
/// reply sent with `Content-Encoding: gzip` itself, whatever the request asked, faster than a cancellation
/// takes effect: 1 MB of gzip holding 1 GB is given up at the limit, but about 1 GB was held on the way
/// (measured over loopback). A server that fetches from peers it does not trust should send through
/// `AsyncHTTPClientTransport` (below), which reads with backpressure.
///
/// One reply header stops the whole process, and nothing here can prevent it: on Linux a reply whose
/// `Content-Length` is from 9223372036854775296 to 9223372036854775807 (2^63 - 512 to `Int64.max`, the
/// lengths whose `Double` rounds up to 2^63) kills the process with SIGILL inside Foundation, whatever
/// its status (a 3xx too) and whatever the request. libcurl keeps any length that fits an `Int64`, and
/// Foundation's header callback (`_EasyHandle.setupCallbacks()`, EasyHandle.swift lines 626-634 of
/// swift-corelibs-foundation 6.3.1, unchanged to this day) reads it back for every header line through
/// `CURLINFO_CONTENT_LENGTH_DOWNLOAD`, a `Double`, and converts it with `Int64(contentLength)` (line
/// 697), which traps on 2^63. That runs on Foundation's thread, for the blank line that ends the
/// headers, before the reply exists for any delegate: `urlSession(_:dataTask:didReceive:completionHandler:)`
/// and the redirect callback come after it, Foundation sets neither of the libcurl options that would
/// refuse such a length first (`CURLOPT_MAXFILESIZE`, `CURLOPT_IGNORE_CONTENT_LENGTH`) and exposes
/// no way to set one, and no public API reaches the reply's bytes before libcurl does. Every other
/// length is safe: negative or not a number is refused by libcurl (a `URLError` saying "Invalid
/// Content-Length"), one past `Int64.max` is ignored (the body is read to the end of the connection),
/// and one past the limit is given up at once (``TransportError/Kind/replyTooLarge``). `ReplyLengthTests`
/// keeps the crash in a child process, so that a Foundation that no longer traps is noticed.
///
/// So on Linux this transport cannot refuse a `Content-Length` near 2^63, and a server should not send
/// through it: use `AsyncHTTPClientTransport`, product `RecoKitAsyncHTTPClient` of the companion package
/// in `Integrations/`, which holds a length as an integer. This one is for programs without dependencies
/// (`recokit relay`, which a batch cut short too often dead-letters rather than send for ever: see
/// `TrackerConfiguration.interruptedDeliveryLimit`), tests, and macOS, whose Foundation is not affected.
public final class URLSessionTransport: Transport, @unchecked Sendable {
    /// The transport all trackers and clients share unless given another.
    public static let shared = URLSessionTransport()

    /// The most bytes of a reply's body read for any request (16 MiB unless given).
    public let maxReplyBytes: Int

    private let configuration: URLSessionConfiguration
    private let replies = Replies()
    private let lock = NSLock()
    private var session: URLSession

    /// A transport with its own session, allowing `connectionsPerHost` connections to one host and reading
    /// at most `maxReplyBytes` of a reply's body.
    public init(connectionsPerHost: Int = 8, maxReplyBytes: Int = 16 << 20) {
        self.maxReplyBytes = max(1, maxReplyBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        self.configuration = configuration
        session = URLSession(configuration: configuration, delegate: replies, delegateQueue: nil)
        replies.retire = { [weak self] abandoned in self?.retire(abandoned) }
    }

    deinit {
        // On Foundation's queue, for the reason `Replies` gives: `invalidateAndCancel` waits for the
        // session's work queue. Not on `DispatchQueue.global()`, whose few threads Swift's tasks share.
        let session = self.session
        replies.foundation.async { session.invalidateAndCancel() }
    }

    /// Sends `request`; gives up with `URLError(.timedOut)` when no whole reply has come within `timeout`.
    ///
    /// Foundation on Linux misfires below a second: a request whose `timeoutInterval` is under one second
    /// can fail as timed out at once, a prompt reply notwithstanding (seen under load). So URLSession
    /// gets whole seconds (at least one) as a backstop, and the timeout itself is kept here: the request
    /// races a timer, and the loser is cancelled.
    /// - Throws: ``TransportError`` (``TransportError/Kind/replyTooLarge``) past the limit; Foundation's
    ///   `URLError`s otherwise; `CancellationError` when the calling task is cancelled.
    public func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up))
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        let limit = min(maxReplyBytes, max(1, request.maxReplyBytes ?? .max))
        let replies = self.replies
        let starting = urlRequest
        // With words: Foundation on Linux has none for a `URLError` it did not make itself.
        let timedOut = URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "no whole reply within \(timeout) (\(request.url.host ?? "?"))"])
        return try await withThrowingTaskGroup(of: VendorReply.self) { group in
            group.addTask { try await replies.perform(limit: limit, timedOut: timedOut) { [self] in lock.withLock { session.dataTask(with: starting) } } }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw timedOut
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Sends later requests on a fresh session if `abandoned` still runs on the current one, and lets the
    /// old one finish its tasks and go. Called on `Replies.foundation` only.
    private func retire(_ abandoned: URLSession) {
        let retired: URLSession? = lock.withLock {
            guard abandoned === session else { return nil }
            session = URLSession(configuration: configuration, delegate: replies, delegateQueue: nil)
            return abandoned
        }
        retired?.finishTasksAndInvalidate()
    }

    /// The sessions' delegate: gathers each task's body up to its limit and answers its caller once.
    ///
    /// Every call into Foundation that may wait is made off the caller's thread: making a task, starting
    /// it and making a session on ``foundation``, a queue of its own, and cancelling a task on a thread of
    /// its own (a cancel can wait as long as a reply streams). On Linux
    /// these calls wait for a work queue that a reply streaming in can hold for as long as it streams;
    /// made on Swift's cooperative threads, a few of them held every task of the process, the timers
    /// that give up those very requests included.
    private final class Replies: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        /// One request from its caller's side: answered once, by its reply, its limit, or its caller
        /// giving up (the task not yet made, or made and running). Guarded by `Replies.lock`.
        private final class Exchange: @unchecked Sendable {
            var continuation: CheckedContinuation<VendorReply, any Error>?
            let limit: Int
            var body = Data()
            var response: HTTPURLResponse?
            var task: URLSessionDataTask?
            var answered = false
            /// What the caller is told when the request times out, by the transport's timer or, when that
            /// comes late (the process busy), by Foundation's own, a second or more later.
            let timedOut: URLError

            init(limit: Int, timedOut: URLError) {
                self.limit = limit
                self.timedOut = timedOut
            }
        }

        /// Where Foundation is called.
        let foundation = DispatchQueue(label: "RecoKit.URLSessionTransport")
        private let lock = NSLock()
        /// The exchanges whose task runs, by task.
        private var running: [ObjectIdentifier: Exchange] = [:]
        /// Called with the session of a task given up in the middle of its reply.
        var retire: @Sendable (URLSession) -> Void = { _ in }

        /// Makes a task with `make` (on ``foundation``), runs it and returns its reply; answers at once
        /// when the calling task is cancelled, whether the task was made yet or not.
        func perform(limit: Int, timedOut: URLError, make: @escaping @Sendable () -> URLSessionDataTask) async throws -> VendorReply {
            let exchange = Exchange(limit: limit, timedOut: timedOut)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let given = lock.withLock { () -> Bool in
                        guard !exchange.answered else { return true }
                        exchange.continuation = continuation
                        return false
                    }
                    if given {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    foundation.async {
                        guard !self.lock.withLock({ exchange.answered }) else { return }
                        let task = make()
                        let start = self.lock.withLock { () -> Bool in
                            guard !exchange.answered else { return false }
                            exchange.task = task
                            self.running[ObjectIdentifier(task)] = exchange
                            return true
                        }
                        if start { task.resume() } else { task.cancel() }
                    }
                }
            } onCancel: {
                self.abandon(exchange, with: CancellationError())
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            let (exchange, tooLarge) = lock.withLock { () -> (Exchange?, Int?) in
                guard let exchange = running[ObjectIdentifier(dataTask)] else { return (nil, nil) }
                exchange.response = response as? HTTPURLResponse
                return (exchange, response.expectedContentLength > Int64(exchange.limit) ? exchange.limit : nil)
            }
            completionHandler(.allow)
            if let exchange, let tooLarge { abandon(exchange, with: TransportError.replyTooLarge(limit: tooLarge), in: session) }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let overLimit = lock.withLock { () -> Exchange? in
                guard let exchange = running[ObjectIdentifier(dataTask)] else { return nil }
                guard exchange.body.count + data.count <= exchange.limit else { return exchange }
                exchange.body.append(data)
                return nil
            }
            if let overLimit { abandon(overLimit, with: TransportError.replyTooLarge(limit: overLimit.limit), in: session) }
        }

        /// A redirect is followed only by a request without a body (GET, HEAD): Foundation sends a
        /// redirected request on without its body (301, 302 and 303 as a GET, 307 and 308 as an empty
        /// POST), and the new address's 200 would then answer for events it never received. The caller
        /// gets the 3xx reply itself (a tracker keeps the events and says where the vendor points).
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            let method = task.originalRequest?.httpMethod ?? "GET"
            let bodiless = (method == "GET" || method == "HEAD") && (task.originalRequest?.httpBody ?? Data()).isEmpty
            completionHandler(bodiless ? request : nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let exchange = lock.withLock { () -> Exchange? in
                guard let exchange = running.removeValue(forKey: ObjectIdentifier(task)), !exchange.answered else { return nil }
                exchange.answered = true
                return exchange
            }
            guard let exchange, let continuation = exchange.continuation else { return }
            exchange.continuation = nil
            if let error {
                continuation.resume(throwing: (error as? URLError)?.code == .timedOut ? exchange.timedOut : error)
                return
            }
            guard let http = exchange.response ?? task.response as? HTTPURLResponse else {
                continuation.resume(throwing: URLError(.badServerResponse))
                return
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let key = key as? String, let value = value as? String { headers[key] = value }
            }
            continuation.resume(returning: VendorReply(status: http.statusCode, headers: headers, body: exchange.body))
        }

        /// Answers the exchange's caller with `error` (the first answer only) and cancels its task, if it
        /// was made; retires `session`, when given, for a reply given up in the middle (past its limit).
        private func abandon(_ exchange: Exchange, with error: any Error, in session: URLSession? = nil) {
            let (continuation, task) = lock.withLock { () -> (CheckedContinuation<VendorReply, any Error>?, URLSessionDataTask?) in
                guard !exchange.answered else { return (nil, nil) }
                exchange.answered = true
                defer { exchange.continuation = nil }
                if let task = exchange.task { running.removeValue(forKey: ObjectIdentifier(task)) }
                // No continuation yet: `perform` finds the exchange answered and answers its caller.
                return (exchange.continuation, exchange.task)
            }
            continuation?.resume(throwing: error)
            guard let task else { return }
            // The session first, on Foundation's queue, so that the requests made after this one go to a
            // fresh session; the cancel on a thread of its own, neither the caller's nor that queue's: this
            // Foundation's `cancel()` waits for the task's work queue, which a reply streaming in fast can
            // hold for as long as it streams (seen with a 301 whose body had no end: the caller,
            // cancelling at its timeout, waited with it), and past about 300 MB/s for good.
            if let session { foundation.async { self.retire(session) } }
            Thread.detachNewThread { task.cancel() }
        }
    }
}
