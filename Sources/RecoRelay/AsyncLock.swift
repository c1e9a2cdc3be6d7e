import Foundation

/// Mutual exclusion across suspension points: one holder at a time, the others wait their turn (in
/// order) without holding a thread. For work that awaits while it must not interleave (a commit and the
/// acknowledgements written after it).
final class AsyncLock: @unchecked Sendable {
    private let lock = NSLock()
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every earlier holder is done.
    func withLock<Result, Failure: Error>(_ body: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = lock.withLock { () -> Bool in
                if held { waiters.append(continuation); return false }
                held = true
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if waiters.isEmpty { held = false; return nil }
            return waiters.removeFirst()
        }
        next?.resume()
    }
}
