import Foundation

extension NSLock {
    /// Runs `body` holding the lock (Foundation's own `withLock` needs macOS 14; the package supports 13).
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
