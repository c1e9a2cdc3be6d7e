import Foundation
import RecoPage

/// A clock the test moves by hand, for the cache's time to live.
final class ManualTime: @unchecked Sendable {
    private let lock = NSLock()
    private var now = Duration.zero

    var clock: CacheClock { CacheClock { [self] in lock.withLock { now } } }

    func advance(_ by: Duration) { lock.withLock { now += by } }
}
