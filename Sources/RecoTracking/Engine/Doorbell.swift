import Foundation

/// Wakes waiting tasks when something they wait for happens, instead of their polling: senders wait for
/// appends (the journal says when one fills a batch), commits, flushes and shutdown; callers of
/// ``Tracker/waitUntilIdle(timeout:)`` wait for acknowledgements.
///
/// A waiter first reads ``generation``, then looks at the state it cares about, then waits "after" that
/// generation: a ``ring()`` in between returns at once, so no wake-up is lost.
final class Doorbell: Sendable {
    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<Void, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var generation: UInt64 = 0
        var waiters: [Waiter] = []
        var nextId = 0
        var cancelled: Set<Int> = []
    }

    private let state = Locked(State())

    /// Changes on every ring.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Wakes every waiter.
    func ring() {
        let woken = state.withLock { state -> [Waiter] in
            state.generation &+= 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in woken { waiter.timer?.cancel(); waiter.continuation.resume() }
    }

    /// Returns once rung after `generation`, after `timeout`, or when the task is cancelled.
    func wait(after generation: UInt64, timeout: Duration) async {
        let id = state.withLock { state -> Int in
            state.nextId += 1
            return state.nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let registered = state.withLock { state -> Bool in
                    if state.generation != generation || state.cancelled.remove(id) != nil || Task.isCancelled {
                        return false
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return true
                }
                guard registered else { continuation.resume(); return }
                let timer = Task { [self] in
                    do { try await Task.sleep(for: timeout) } catch { return }
                    resume(id)
                }
                let stillWaiting = state.withLock { state -> Bool in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
                    state.waiters[index].timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            resume(id, cancelling: true)
        }
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    /// Resumes one waiter (its timeout came, or its task was cancelled).
    private func resume(_ id: Int, cancelling: Bool = false) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                if cancelling { state.cancelled.insert(id) }
                return nil
            }
            return state.waiters.remove(at: index)
        }
        if let waiter {
            if cancelling { waiter.timer?.cancel() }
            waiter.continuation.resume()
        }
    }
}
