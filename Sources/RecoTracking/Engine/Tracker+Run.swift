import Foundation

extension Tracker {
    /// Delivers until the task running it is cancelled, then drains: stops taking events, commits, and
    /// goes on delivering for at most ``TrackerConfiguration/drainDeadline``; what is left stays in the
    /// store for the next run. Returns once every task it started has ended and the store is closed.
    ///
    /// It is a swift-service-lifecycle `Service`'s `run()`: `extension Tracker: @retroactive Service {}`,
    /// and a `ServiceGroup` that is shut down cancels it. Without one, run it in a task group of yours:
    ///
    /// ```swift
    /// try await withThrowingDiscardingTaskGroup { group in
    ///     group.addTask { try await tracker.run() }
    ///     try await serveRequests(tracking: tracker)
    ///     group.cancelAll()   // the tracker drains, then returns
    /// }
    /// ```
    /// - Throws: ``TrackingError/configuration(_:)`` when the tracker runs (or ran) already.
    public func run() async throws {
        try control.withLock { (state: inout Control) throws(TrackingError) in
            guard state.phase == .idle else { throw .configuration("a tracker runs once, and this one \(state.phase == .stopped ? "ran" : "runs") already") }
            state.phase = .running
        }
        // The delivery goes on after this task is cancelled (for the drain), so it cannot be this task's
        // child, which the cancellation would reach at once; it is awaited here, so it ends before this does.
        let delivery = Task { await deliverUntilDrained() }
        await withTaskCancellationHandler {
            await delivery.value
        } onCancel: {
            stop()
        }
    }

    /// Asks the run to stop: no more events are taken, and the drain begins.
    func stop() {
        let stopping = control.withLock { state -> Bool in
            guard state.phase == .running || state.phase == .idle else { return false }
            state.phase = .draining
            return true
        }
        guard stopping else { return }
        runBell.ring()
        store.wake()
        gateBell.ring()
    }

    /// Sets how long the next stop drains (the relay's `--deadline`, after it has waited for room itself).
    package func drain(within deadline: Duration) {
        control.withLock { $0.drainDeadline = deadline }
    }

    /// The senders, the committer and the store's own work, until the stop has drained; then the store is closed.
    private func deliverUntilDrained() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, configuration.maxConcurrentRequests) {
                group.addTask { await self.sendLoop() }
            }
            if let interval = store.commitInterval {
                group.addTask { await self.commitLoop(every: interval) }
            }
            group.addTask { await self.store.run() }
            await waitForStop()
            // A store that commits on a schedule has what `track` took committed now; one durable on its
            // caller's commits only (a relay's) is left as its caller left it.
            if store.commitInterval != nil {
                do { try await store.commit() } catch { counters.withLock { $0.lastError = "\(error)" } }
            }
            store.wake()
            let deadline = control.withLock { $0.drainDeadline }
            await waitUntilIdle(timeout: deadline)
            group.cancelAll()
        }
        do { try await store.close() } catch { counters.withLock { $0.lastError = "\(error)" } }
        control.withLock { $0.phase = .stopped }
        settledBell.ring()
    }

    private func waitForStop() async {
        while true {
            let generation = runBell.generation
            if control.withLock({ $0.phase == .draining }) { return }
            await runBell.wait(after: generation, timeout: .seconds(3600))
        }
    }

    /// Commits every `interval` (at once for a forced push), so that what `track` took becomes durable and
    /// claimable; a failure stays the store's to report (its appends refuse while its disk fails).
    private func commitLoop(every interval: Duration) async {
        while !Task.isCancelled {
            let generation = runBell.generation
            await runBell.wait(after: generation, timeout: interval)
            if Task.isCancelled { return }
            do { try await store.commit() } catch { counters.withLock { $0.lastError = "\(error)" } }
        }
    }

    /// Returns once nothing is pending (every accepted event delivered or dead-lettered): true, or false
    /// when `timeout` passed first. For tests and tools that must see delivery finish; it waits on
    /// settlements, it does not poll.
    @discardableResult
    public func waitUntilIdle(timeout: Duration = .seconds(60)) async -> Bool {
        let end = ContinuousClock.now + timeout
        while true {
            let generation = settledBell.generation
            if statistics.pending == 0 { return true }
            let left = ContinuousClock.now.duration(to: end)
            if left <= .zero || Task.isCancelled || control.withLock({ $0.phase == .stopped }) { return false }
            // Bounded, for a shared store whose records others deliver.
            await settledBell.wait(after: generation, timeout: min(left, configuration.idlePollInterval))
        }
    }
}
