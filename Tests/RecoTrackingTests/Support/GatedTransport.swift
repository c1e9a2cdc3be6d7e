import Foundation
@testable import RecoTracking

/// Answers 200 at once, except: a request whose body has the line ``held`` (an event id, as
/// ``CountingDestination`` writes them) waits until ``release()`` or until its task is cancelled, and one
/// with the line ``rejected`` is answered 422. A test holds a tracker in the middle of a batch with it and
/// looks at the counts there. (Set both before tracking: a tracker's run, part of every id, is known only
/// once it is made.)
final class GatedTransport: Transport, @unchecked Sendable {
    private let lock = NSLock()
    private var heldId = ""
    private var rejectedId = ""
    private var released = false
    private var nextWaiter = 0
    private var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var cancelledWaiters: Set<Int> = []
    private var heldCount = 0
    private var arrivals: [CheckedContinuation<Void, Never>] = []

    /// The id whose request waits.
    var held: String {
        get { lock.withLock { heldId } }
        set { lock.withLock { heldId = newValue } }
    }

    /// The id whose request is refused.
    var rejected: String {
        get { lock.withLock { rejectedId } }
        set { lock.withLock { rejectedId = newValue } }
    }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        let lines = String(decoding: request.body, as: UTF8.self).split(separator: "\n")
        let (held, rejected) = lock.withLock { (heldId, rejectedId) }
        if lines.contains(where: { $0 == rejected }) {
            return VendorReply(status: 422, body: Data("unknown product".utf8))
        }
        guard lines.contains(where: { $0 == held }) else { return VendorReply(status: 200) }
        let waiter = lock.withLock { () -> Int in
            nextWaiter += 1
            return nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, arrived) = lock.withLock { () -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if released { return (.success(()), []) }
                    if cancelledWaiters.contains(waiter) { return (.failure(CancellationError()), []) }
                    waiters[waiter] = continuation
                    heldCount += 1
                    defer { arrivals.removeAll() }
                    return (nil, arrivals)
                }
                for arrival in arrived { arrival.resume() }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let continuation = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                cancelledWaiters.insert(waiter)
                return waiters.removeValue(forKey: waiter)
            }
            continuation?.resume(throwing: CancellationError())
        }
        return VendorReply(status: 200)
    }

    /// Returns once a request is held.
    func waitUntilHeld() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if heldCount > 0 { return true }
                arrivals.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Answers the held requests, and every later one at once.
    func release() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            released = true
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}
