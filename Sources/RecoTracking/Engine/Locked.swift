import Foundation

/// A value guarded by a lock, for state that many threads touch briefly (counters, the journal).
///
/// The value is kept through a pointer rather than as a stored `var`: every access to a class's stored
/// `var` is checked at run time for overlapping access (`swift_beginAccess`, tens of instructions), which
/// the lock already rules out.
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private let state: UnsafeMutablePointer<State>

    init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` on the value under the lock; throws what `body` throws (typed, so callers with typed
    /// throws keep their error type).
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state.pointee)
    }
}
