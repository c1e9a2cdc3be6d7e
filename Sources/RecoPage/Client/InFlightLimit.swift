import Foundation

/// At most `limit` requests to one vendor at a time; the others wait their turn in order. A waiter
/// whose task is cancelled (its page's budget passed) leaves the queue at once.
final class InFlightLimit: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var running = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    /// Waiters that have neither been handed a slot nor cancelled (registered or about to be).
    private var waiting: Set<UInt64> = []
    private var nextId: UInt64 = 0

    init(limit: Int) { self.limit = max(1, limit) }

    /// Requests running now.
    var inFlight: Int { lock.locked { running } }

    /// Waits for a free slot; throws `CancellationError` when the task is cancelled first.
    func acquire() async throws {
        let id: UInt64? = lock.locked {
            if running < limit {
                running += 1
                return nil
            }
            nextId += 1
            waiting.insert(nextId)
            return nextId
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // nil: queued; true: cancelled meanwhile; false: a slot came free meanwhile (taken).
                let now: Bool? = lock.locked {
                    guard waiting.contains(id) else { return true }
                    if running < limit {
                        running += 1
                        waiting.remove(id)
                        return false
                    }
                    waiters.append((id, continuation))
                    return nil
                }
                switch now {
                case true?: continuation.resume(throwing: CancellationError())
                case false?: continuation.resume()
                case nil: break
                }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Void, any Error>? = lock.locked {
                guard waiting.remove(id) != nil else { return nil }
                if let index = waiters.firstIndex(where: { $0.id == id }) { return waiters.remove(at: index).continuation }
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Frees a slot, handing it to the first waiter.
    func release() {
        let next: CheckedContinuation<Void, any Error>? = lock.locked {
            if waiters.isEmpty {
                running -= 1
                return nil
            }
            let first = waiters.removeFirst()
            waiting.remove(first.id)
            return first.continuation
        }
        next?.resume()
    }
}
