import Foundation

/// A value guarded by a lock, for state that many threads touch briefly (counters, the journal).
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` on the value under the lock; throws what `body` throws (typed, so callers with typed
    /// throws keep their error type).
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
