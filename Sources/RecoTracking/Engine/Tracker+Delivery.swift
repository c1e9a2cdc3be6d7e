import Foundation

extension Tracker {
    /// One sender: takes due batches from the journal and delivers them until cancelled.
    func sendLoop() async {
        let limits = destination.limits
        let maxEvents = min(limits.maxEvents, configuration.maxBatchEvents ?? .max)
        while !Task.isCancelled {
            let force = control.withLock { $0.forceFlush || $0.draining }
            var batch: JournalBatch?
            do {
                batch = try journal.take(maxCount: maxEvents, maxBytes: limits.maxBytes,
                                         interval: configuration.flushInterval, force: force)
            } catch {
                counters.withLock { $0.lastError = "\(error)" }
            }
            guard let batch else {
                if force, journal.untakenCount == 0 { control.withLock { $0.forceFlush = false } }
                try? await Task.sleep(for: configuration.idlePollInterval)
                continue
            }
            var items: [(event: TrackedEvent, payload: ArraySlice<UInt8>)] = []
            var unreadable: [(payload: ArraySlice<UInt8>, reason: String)] = []
            for payload in batch.payloads {
                do { items.append((try EventCodec.decode(payload), payload)) } catch {
                    unreadable.append((payload, "unreadable journal record: \(error)"))
                }
            }
            var letters = unreadable
            guard await deliver(items, deadLetters: &letters) else { return }
            // The batch is forgotten only once its dead letters are on disk: nothing goes unrecorded.
            while !deadLetter(letters) {
                do { try await clock.sleep(for: configuration.retryPolicy.initialDelay) } catch { return }
            }
            if let failure = journal.acknowledge(batch) { counters.withLock { $0.lastError = "\(failure)" } }
        }
    }

    /// Screens, sends, and settles every event of `items`, adding those to dead-letter (with their
    /// reasons) to `deadLetters`; false when cancelled before that.
    func deliver(_ items: [(event: TrackedEvent, payload: ArraySlice<UInt8>)],
                 deadLetters: inout [(payload: ArraySlice<UInt8>, reason: String)]) async -> Bool {
        let now = clock.now()
        var sendable: [(event: TrackedEvent, payload: ArraySlice<UInt8>)] = []
        var screened: [(payload: ArraySlice<UInt8>, reason: String)] = []
        for item in items {
            if let reason = destination.screen(item.event, now: now) { screened.append((item.payload, reason)) } else { sendable.append(item) }
        }
        deadLetters += screened
        guard !sendable.isEmpty else { return true }
        return await send(sendable, deadLetters: &deadLetters)
    }

    private func send(_ items: [(event: TrackedEvent, payload: ArraySlice<UInt8>)],
                      deadLetters: inout [(payload: ArraySlice<UInt8>, reason: String)]) async -> Bool {
        var attempt = 0
        while true {
            guard await waitWhilePaused() else { return false }
            let request = destination.request(for: items.map(\.event))
            let verdict: DeliveryVerdict
            do {
                let reply = try await transport.send(request, timeout: configuration.requestTimeout)
                verdict = destination.verdict(for: reply, eventCount: items.count, now: clock.now())
            } catch {
                if Task.isCancelled { return false }
                counters.withLock { $0.lastError = "network: \(error.localizedDescription)" }
                verdict = .retry()
            }
            switch verdict.base {
            case .delivered:
                counters.withLock { $0.delivered += items.count }
                return true
            case .retry(let after):
                attempt += 1
                counters.withLock { $0.retried += items.count }
                pause(for: configuration.retryPolicy.delay(attempt: attempt, retryAfter: after, jitter: clock.jitter()))
            case .misconfigured(let reason):
                attempt += 1
                counters.withLock {
                    $0.retried += items.count
                    $0.configurationFaults += 1
                    $0.lastError = "\(destination.name) is misconfigured: \(reason)"
                }
                pause(for: configuration.retryPolicy.configurationDelay)
            case .rejected(let reason):
                if items.count == 1 {
                    deadLetters.append((items[0].payload, reason))
                    return true
                }
                return await sendHalves(items, deadLetters: &deadLetters)
            case .tooLarge:
                if items.count == 1 {
                    deadLetters.append((items[0].payload, "HTTP 413: the event alone is larger than \(destination.name) accepts"))
                    return true
                }
                return await sendHalves(items, deadLetters: &deadLetters)
            }
        }
    }

    /// Bisects a refused batch so the good events go through and each bad one is found.
    private func sendHalves(_ items: [(event: TrackedEvent, payload: ArraySlice<UInt8>)],
                            deadLetters: inout [(payload: ArraySlice<UInt8>, reason: String)]) async -> Bool {
        let half = items.count / 2
        guard await send(Array(items[..<half]), deadLetters: &deadLetters) else { return false }
        return await send(Array(items[half...]), deadLetters: &deadLetters)
    }

    private func pause(for delay: Duration) {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        let until = clock.now().addingTimeInterval(seconds)
        control.withLock { if until > $0.pausedUntil { $0.pausedUntil = until } }
    }

    /// Waits while the destination is paused; false when cancelled.
    private func waitWhilePaused() async -> Bool {
        while true {
            if Task.isCancelled { return false }
            let until = control.withLock { $0.pausedUntil }
            let now = clock.now()
            guard until > now else { return true }
            let wait = until.timeIntervalSince(now)
            do { try await clock.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up)))) } catch { return false }
        }
    }

    /// Writes dead letters; false (with the error in ``TrackingStatistics/lastError``) when they could
    /// not be written, so the caller keeps their batch pending.
    func deadLetter(_ letters: [(payload: ArraySlice<UInt8>, reason: String)]) -> Bool {
        guard !letters.isEmpty else { return true }
        do {
            try deadLetterStore.add(letters, at: clock.now())
            counters.withLock { $0.deadLettered += letters.count }
            return true
        } catch {
            counters.withLock { $0.lastError = "cannot write dead letters: \(error)" }
            return false
        }
    }

    /// Stops intake, delivers what it can until `deadline`, leaves the rest in the journal, and closes
    /// it. Calling it again (or concurrently) returns the same summary.
    public func shutdown(deadline: Duration) async -> ShutdownSummary {
        let task = control.withLock { state -> Task<ShutdownSummary, Never> in
            if let existing = state.shutdown { return existing }
            let task = Task { await self.drainAndClose(deadline: deadline) }
            state.shutdown = task
            return task
        }
        return await task.value
    }

    private func drainAndClose(deadline: Duration) async -> ShutdownSummary {
        journal.closeIntake()
        do { try journal.commit() } catch { counters.withLock { $0.lastError = "\(error)" } }
        control.withLock { $0.draining = true }
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end, journal.pendingCount > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let tasks = control.withLock { $0.tasks }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        if let failure = journal.close() { counters.withLock { $0.lastError = "\(failure)" } }
        let snapshot = counters.withLock { $0 }
        return ShutdownSummary(delivered: snapshot.delivered, pending: journal.pendingCount, deadLettered: snapshot.deadLettered)
    }
}
