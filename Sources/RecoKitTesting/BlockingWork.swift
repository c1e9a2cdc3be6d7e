import Foundation

/// Runs `work`, which blocks its thread (waits for a child process, reads a pipe until a stand-in server
/// says its port, runs the compiler), on a thread of its own, and waits for it without holding one of
/// Swift's cooperative threads.
///
/// Those threads are as many as the machine has cores (two here, four at most when they block), and
/// every task of the test process runs on them: the timers that keep a page's budget or a request's
/// timeout, and the replies that beat them. A test that blocks one while its neighbours block the others
/// stops every other test's clock. Seen in CI: a page's budget of 2 s, kept by a timer, came due after
/// 3.7 s while two stand-in servers started beside it, and the healthy vendor's blocks were given up
/// with the faulty one's.
package func blockingWork<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// Runs `attempt` and watches, meanwhile, how late a task that sleeps 10 ms at a time wakes: the longest
/// the process's tasks waited for a cooperative thread while the attempt ran.
///
/// A test of a deadline kept by a timer (a page's budget, a request's timeout) against something that
/// happens off those threads (a reply arriving) can only judge an attempt during which the timer could
/// run: beside CPU-bound tests that hold every cooperative thread for seconds (a simulation, a compiler
/// run), the reply may be in while the timer, later, runs first. Such a test runs its attempt again
/// when the wait here passes what it allows, and says so.
package func watchingTaskThreads<T: Sendable>(_ attempt: () async throws -> T) async rethrows -> (value: T, longestWait: Duration) {
    let watcher = Task { () -> Duration in
        let clock = ContinuousClock()
        var longest = Duration.zero
        while !Task.isCancelled {
            let asleep = clock.now
            try? await Task.sleep(for: .milliseconds(10))
            longest = max(longest, clock.now - asleep - .milliseconds(10))
        }
        return longest
    }
    let value: T
    do {
        value = try await attempt()
    } catch {
        watcher.cancel()
        throw error
    }
    watcher.cancel()
    return (value, await watcher.value)
}

/// Runs `attempt` until one runs while the process's tasks waited at most `allowedWait` for a thread
/// (see `watchingTaskThreads`), at most `attempts` times, and returns that attempt's value. The
/// last attempt is returned whatever its wait, so a fault that shows on a process that keeps its timers
/// still fails the test. Prints, with `label`, each attempt it does not return.
package func attemptKeptOnTime<T: Sendable>(allowedWait: Duration, attempts: Int = 5, label: String,
                                            _ attempt: () async throws -> T) async rethrows -> T {
    var number = 1
    while true {
        let (value, waited) = try await watchingTaskThreads(attempt)
        if waited <= allowedWait || number >= attempts { return value }
        print("\(label): attempt \(number) not judged: the process's tasks waited \(waited) for a thread (\(allowedWait) allowed)")
        number += 1
    }
}
