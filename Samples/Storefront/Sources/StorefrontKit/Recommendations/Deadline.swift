import Foundation

/// Runs work against a time limit and answers by the limit, whatever the work does: the work runs in
/// its own task, which is cancelled (not waited for) when the limit passes first. A transport that is
/// slow to notice cancellation (a body still streaming in) therefore cannot hold a page past its budget.
enum Deadline {
    /// How the race ended.
    enum Outcome<Value: Sendable>: Sendable {
        /// The work finished in time.
        case done(Value)
        /// The work threw in time.
        case failed(any Error)
        /// The limit passed first.
        case late
    }

    /// The work's outcome, or ``Outcome/late`` at `limit`.
    static func race<Value: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> Value) async -> Outcome<Value> {
        let race = Race<Value>()
        return await withCheckedContinuation { continuation in
            race.start(continuation)
            race.adopt(Task {
                let outcome: Outcome<Value>
                do { outcome = .done(try await work()) } catch { outcome = .failed(error) }
                race.finish(outcome)
            })
            race.adopt(Task {
                try? await Task.sleep(for: limit)
                race.finish(.late)
            })
        }
    }

    /// The shared state of one race: the first outcome resumes the caller, then both tasks are cancelled.
    private final class Race<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Outcome<Value>, Never>?
        private var tasks: [Task<Void, Never>] = []
        private var finished = false

        func start(_ continuation: CheckedContinuation<Outcome<Value>, Never>) {
            lock.withLock { self.continuation = continuation }
        }

        func adopt(_ task: Task<Void, Never>) {
            let cancelNow = lock.withLock {
                if !finished { tasks.append(task) }
                return finished
            }
            if cancelNow { task.cancel() }
        }

        func finish(_ outcome: Outcome<Value>) {
            let (continuation, tasks): (CheckedContinuation<Outcome<Value>, Never>?, [Task<Void, Never>]) = lock.withLock {
                guard !finished else { return (nil, []) }
                finished = true
                defer { self.continuation = nil; self.tasks = [] }
                return (self.continuation, self.tasks)
            }
            continuation?.resume(returning: outcome)
            for task in tasks { task.cancel() }
        }
    }
}
