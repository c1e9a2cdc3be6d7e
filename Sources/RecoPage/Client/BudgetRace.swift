import Foundation

/// Runs work against a time limit and answers by the limit, whatever the work does: the work runs in
/// its own task, which is cancelled (not waited for) when the limit passes first. A transport that is
/// slow to notice cancellation (a body still streaming in) therefore cannot hold a page past its budget.
enum BudgetRace {
    /// How the race ended.
    enum Outcome<Value: Sendable>: Sendable {
        /// The work finished in time.
        case done(Value)
        /// The limit passed first.
        case late
    }

    /// The work's value, or ``Outcome/late`` at `limit`.
    static func race<Value: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async -> Value) async -> Outcome<Value> {
        let race = Race<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.start(continuation)
                race.adopt(Task { race.finish(.done(await work())) })
                race.adopt(Task {
                    try? await Task.sleep(for: limit)
                    race.finish(.late)
                })
            }
        } onCancel: {
            race.finish(.late)
        }
    }

    /// The shared state of one race: the first outcome resumes the caller, then both tasks are cancelled.
    private final class Race<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Outcome<Value>, Never>?
        private var tasks: [Task<Void, Never>] = []
        private var finished = false
        private var early: Outcome<Value>?

        func start(_ continuation: CheckedContinuation<Outcome<Value>, Never>) {
            let early: Outcome<Value>? = lock.locked {
                if finished { return self.early }
                self.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        func adopt(_ task: Task<Void, Never>) {
            let cancelNow = lock.locked {
                if !finished { tasks.append(task) }
                return finished
            }
            if cancelNow { task.cancel() }
        }

        func finish(_ outcome: Outcome<Value>) {
            let (continuation, tasks): (CheckedContinuation<Outcome<Value>, Never>?, [Task<Void, Never>]) = lock.locked {
                guard !finished else { return (nil, []) }
                finished = true
                if self.continuation == nil { early = outcome }
                defer { self.continuation = nil; self.tasks = [] }
                return (self.continuation, self.tasks)
            }
            continuation?.resume(returning: outcome)
            for task in tasks { task.cancel() }
        }
    }
}
