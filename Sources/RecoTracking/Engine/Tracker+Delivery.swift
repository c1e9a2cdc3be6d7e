import Foundation

extension Tracker {
    /// One sender: takes due batches from the journal and delivers them until cancelled.
    func sendLoop() async {
        let limits = destination.limits
        let maxEvents = min(limits.maxEvents, configuration.maxBatchEvents ?? .max)
        while !Task.isCancelled {
            let generation = senderBell.generation
            let force = control.withLock { $0.forceFlush || $0.draining }
            var batch: JournalBatch?
            var takeFailed = false
            do {
                batch = try journal.take(maxCount: maxEvents, maxBytes: limits.maxBytes,
                                         interval: configuration.flushInterval, force: force)
            } catch {
                takeFailed = true
                noteDiskError("\(error)")
            }
            guard let batch else {
                if force, journal.untakenCount == 0 { control.withLock { $0.forceFlush = false } }
                await waitForEvents(after: generation, maxEvents: maxEvents, lookAgainAtOnce: !takeFailed)
                continue
            }
            if let failure = batch.readError { noteDiskError("\(failure)") }
            // A page's record holds many events: room for all of them at once, so the array never grows.
            var items: [EventRecord] = []
            items.reserveCapacity(batch.events)
            var unreadable: [(payload: ArraySlice<UInt8>, reason: String)] = []
            for payload in batch.payloads {
                do { try EventRecord.read(payload, into: &items) } catch {
                    unreadable.append((payload, "unreadable journal record: \(error)"))
                }
            }
            var letters = unreadable
            // A page's record holds many events: a batch may hold more than a request takes.
            var delivered = true
            var start = 0
            while delivered, start < items.count {
                let end = min(items.count, start + maxEvents)
                let lettersBefore = letters.count
                delivered = await deliver(items[start..<end], deadLetters: &letters)
                // Sent before the rest of the batch: no longer pending (the acknowledgement settles the last
                // request's events, and dead letters once they are written).
                if delivered, end < items.count { journal.delivered(end - start - (letters.count - lettersBefore), of: batch) }
                start = end
            }
            guard delivered else { return }
            // The batch is forgotten only once its dead letters are on disk: nothing goes unrecorded.
            while !deadLetter(letters) {
                do { try await clock.sleep(for: configuration.retryPolicy.initialDelay) } catch { return }
            }
            if let failure = journal.acknowledge(batch) { noteDiskError("\(failure)") }
            settledBell.ring()
        }
    }

    /// Sleeps until a batch may be due: a batch's worth of appends, the oldest record's flush interval,
    /// a commit, a flush or shutdown (never longer than ``TrackerConfiguration/idlePollInterval``).
    /// `lookAgainAtOnce`: in memory, a full batch appended since the take that found nothing is taken
    /// at once (its appends came before this sender asked to be woken).
    private func waitForEvents(after generation: UInt64, maxEvents: Int, lookAgainAtOnce: Bool) async {
        let interval = configuration.flushInterval
        // Nothing waiting: the first append wakes. Otherwise a full batch does, or the oldest's interval.
        let (untaken, since) = journal.wakeSenders { lastSerial, untaken in
            untaken == 0 ? lastSerial + 1 : lastSerial + max(1, maxEvents - untaken)
        }
        if lookAgainAtOnce, configuration.durability == .memory, untaken >= maxEvents { return }
        var timeout = configuration.idlePollInterval
        if let since { timeout = min(timeout, max(.milliseconds(1), interval - since.duration(to: .now))) }
        else if untaken > 0 { timeout = min(timeout, interval) }
        await senderBell.wait(after: generation, timeout: timeout)
    }

    /// Returns once nothing is pending (every accepted event delivered or dead-lettered): true, or false
    /// when `timeout` passed first. For tests and tools that must see delivery finish; it waits on
    /// acknowledgements, it does not poll.
    @discardableResult
    public func waitUntilIdle(timeout: Duration = .seconds(60)) async -> Bool {
        let end = ContinuousClock.now + timeout
        while true {
            let generation = settledBell.generation
            if journal.pendingCount == 0 { return true }
            let left = ContinuousClock.now.duration(to: end)
            if left <= .zero || Task.isCancelled { return false }
            await settledBell.wait(after: generation, timeout: left)
        }
    }

    /// Screens, sends, and settles every event of `items`, adding those to dead-letter (with their
    /// reasons) to `deadLetters`; false when cancelled before that.
    func deliver(_ items: ArraySlice<EventRecord>,
                 deadLetters: inout [(payload: ArraySlice<UInt8>, reason: String)]) async -> Bool {
        let now = clock.now()
        // Usually nothing is screened out, and then the items are sent as they are, without a copy. Asking
        // about a record copies it (183 bytes, retained): a destination that screens nothing is not asked.
        let destination = self.destination
        let reasons = !destination.screensEvents ? [] : items.withUnsafeBufferPointer { buffer in
            buffer.indices.compactMap { offset in destination.screen(buffer[offset], now: now).map { (offset, $0) } }
        }
        var sendable = items
        if !reasons.isEmpty {
            let screened = Set(reasons.map { items.startIndex + $0.0 })
            deadLetters += reasons.map { (items[items.startIndex + $0.0].standaloneBytes(), $0.1) }
            sendable = ArraySlice(items.indices.filter { !screened.contains($0) }.map { items[$0] })
        }
        guard !sendable.isEmpty else { return true }
        return await send(sendable, deadLetters: &deadLetters)
    }

    /// Sends `items` until every event is delivered or dead-lettered; false when cancelled before that.
    ///
    /// While the destination fails (see ``DeliveryGate``) this sender either holds the probe, and sends
    /// only the first event as a small request, or waits for the sender that holds it.
    private func send(_ items: ArraySlice<EventRecord>,
                      deadLetters: inout [(payload: ArraySlice<UInt8>, reason: String)]) async -> Bool {
        var remaining = items
        while !remaining.isEmpty {
            guard let turn = await waitForTurn() else { return false }
            let probing = turn != .send
            let sending = probing ? remaining.prefix(1) : remaining
            let request = destination.request(forRecords: Array(sending))
            let verdict: DeliveryVerdict
            var reply: TrackingReply?
            do {
                let answer = try await transport.send(request, timeout: configuration.requestTimeout)
                verdict = destination.verdict(for: answer, eventCount: sending.count, now: clock.now())
                reply = answer  // its text is read only for a 413's dead letter
            } catch {
                if Task.isCancelled {
                    if probing {
                        control.withLock { $0.gate.abandonProbe() }
                        gateBell.ring()
                    }
                    return false
                }
                counters.withLock { $0.lastError = "network: \(ErrorWords.of(error))" }
                verdict = .retry()
            }
            switch verdict.base {
            case .retry(let after):
                counters.withLock { $0.retried += sending.count }
                failed(retryAfter: after, probing: probing)
                continue
            case .misconfigured(let reason):
                counters.withLock {
                    $0.retried += sending.count
                    $0.configurationFaults += 1
                    $0.lastError = "\(destination.name) is misconfigured: \(reason)"
                }
                failed(configurationFault: true, probing: probing)
                continue
            case .delivered, .rejected, .tooLarge:
                // The vendor answered about the events: whatever the answer, it is up again.
                control.withLock { $0.gate.answered() }
                gateBell.ring()
            }
            switch verdict.base {
            case .rejected(let reason) where sending.count == 1:
                deadLetters.append((sending.first!.standaloneBytes(), reason))
            case .tooLarge where sending.count == 1:
                let replyText = reply?.bodyText() ?? ""
                let said = replyText.isEmpty ? "" : " (\(destination.name) said: \(replyText))"
                deadLetters.append((sending.first!.standaloneBytes(), "HTTP 413: the event alone is larger than \(destination.name) accepts\(said)"))
            case .rejected, .tooLarge:
                guard await sendHalves(sending, deadLetters: &deadLetters) else { return false }
            default:
                counters.withLock { $0.delivered += sending.count }
            }
            remaining = remaining.dropFirst(sending.count)
        }
        return true
    }

    /// Bisects a refused batch so the good events go through and each bad one is found.
    private func sendHalves(_ items: ArraySlice<EventRecord>,
                            deadLetters: inout [(payload: ArraySlice<UInt8>, reason: String)]) async -> Bool {
        let half = items.startIndex + items.count / 2
        guard await send(items[..<half], deadLetters: &deadLetters) else { return false }
        return await send(items[half...], deadLetters: &deadLetters)
    }

    /// Closes the gate (or moves its probe on) after a failed request.
    private func failed(retryAfter: Duration? = nil, configurationFault: Bool = false, probing: Bool) {
        let policy = configuration.retryPolicy
        let jitter = clock.jitter()
        let now = clock.now()
        control.withLock { state in
            let delay = configurationFault ? policy.configurationDelay
                : policy.delay(attempt: state.gate.failures + 1, retryAfter: retryAfter, jitter: jitter)
            state.gate.failed(now: now, delay: delay, wasProbe: probing)
        }
        gateBell.ring()
    }

    /// Waits until this sender may send: `.send` (the gate is open) or `.probe` (it holds the probe and
    /// its time has come); nil when cancelled. Only the probing sender sleeps on the tracker's clock; the
    /// others wait until the gate changes (it rings ``gateBell``).
    private func waitForTurn() async -> DeliveryGate.Turn? {
        while true {
            if Task.isCancelled { return nil }
            let generation = gateBell.generation
            let turn = control.withLock { $0.gate.turn() }
            switch turn {
            case .send:
                return .send
            case .probe(let at, let atMost):
                // Never longer than the wait that set the time, however far the clock stepped back since
                // (the time alone would make it as much longer); a day at most per sleep, so that a wait of
                // any length becomes milliseconds without overflow.
                var longest = atMost
                var wait = min(at.timeIntervalSince(clock.now()), longest)
                while wait > 0 {
                    let step = min(wait, 86_400)
                    do { try await clock.sleep(for: .milliseconds(Int64((step * 1000).rounded(.up)))) } catch {
                        control.withLock { $0.gate.abandonProbe() }
                        gateBell.ring()
                        return nil
                    }
                    longest -= step
                    wait = step < wait ? min(at.timeIntervalSince(clock.now()), longest) : 0
                }
                return turn
            case .wait:
                // Bounded all the same, so that a missed change costs a second, never a stall.
                await gateBell.wait(after: generation, timeout: .seconds(1))
            }
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
            noteDiskError("cannot write dead letters: \(error)")
            return false
        }
    }

    /// Counts a disk error met while delivering (``TrackingStatistics/deliveryDiskErrors``).
    private func noteDiskError(_ message: String) {
        counters.withLock { counters in
            counters.lastError = message
            counters.deliveryDiskErrors += 1
            counters.deliveryDiskError = message
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
        senderBell.ring()
        await waitUntilIdle(timeout: deadline)
        let tasks = control.withLock { $0.tasks }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        if let failure = journal.close() { counters.withLock { $0.lastError = "\(failure)" } }
        let snapshot = counters.withLock { $0 }
        return ShutdownSummary(delivered: snapshot.delivered, pending: journal.pendingCount, deadLettered: snapshot.deadLettered)
    }
}
