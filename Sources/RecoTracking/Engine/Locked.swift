import Foundation
#if os(Linux)
import Synchronization
#endif

/// A value guarded by a lock, for state that many threads touch briefly (counters, the journal).
///
/// On Linux, where servers run it, the value is in the standard library's `Mutex`: it holds the value
/// in place, so an access under the lock is not checked again at run time for overlap. A class's stored
/// `var` is (`swift_beginAccess`, about a hundred instructions with its thread-local bookkeeping, on each
/// of the three or four rounds a `track` makes), and the lock already rules overlap out. `Mutex` needs
/// macOS 15, above the package's floor: on Apple platforms the value is a stored `var` behind an `NSLock`.
final class Locked<State: Sendable>: @unchecked Sendable {
    #if os(Linux)
    private let mutex: Mutex<State>

    init(_ state: State) {
        mutex = Mutex(state)
    }

    /// Runs `body` on the value under the lock; throws what `body` throws (typed, so callers with typed
    /// throws keep their error type).
    @inline(__always)
    func withLock<Result: Sendable, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { (state: inout State) throws(Failure) -> Result in try body(&state) }
    }
    #else
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` on the value under the lock; throws what `body` throws (typed, so callers with typed
    /// throws keep their error type).
    func withLock<Result: Sendable, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
    #endif
}
