import Foundation

extension Tracker {
    /// One sender: claims due batches from the store and delivers them until cancelled.
    func sendLoop() async {
        let limits = destination.limits
        let maxEvents = min(limits.maxEvents, configuration.maxBatchEvents ?? .max)
        while !Task.isCancelled {
            let mark = store.recordsMark
            let force = control.withLock { $0.forceFlush || $0.phase == .draining }
            let request = ClaimRequest(maxEvents: maxEvents, maxBytes: limits.maxBytes, linger: configuration.flushInterval,
                                       force: force, lease: configuration.lease)
            let claimed: ClaimedBatch?
            do {
                claimed = try await store.claim(request)
            } catch {
                // A store call cut short by this sender stopping (a relay's deadline) is no store fault.
                if Task.isCancelled { return }
                noteDiskError("\(error)")
                await store.waitForRecords(after: mark, timeout: configuration.idlePollInterval)
                continue
            }
            guard let batch = claimed else {
                if force {
                    let status = store.status
                    if status.pendingEvents == status.claimedEvents { control.withLock { $0.forceFlush = false } }
                }
                await store.waitForRecords(after: mark, timeout: configuration.idlePollInterval)
                continue
            }
            if let trouble = batch.trouble { noteDiskError("\(trouble)") }
            guard await deliver(batch, maxEvents: maxEvents) else {
                await store.giveBack(batch)
                control.withLock { $0.deliveredUnsettled[batch.id] = nil }
                return
            }
        }
    }

    /// Delivers one claimed batch and settles it: every event delivered or dead-lettered (with its reason).
    /// False when cancelled first (the batch is then the caller's to give back).
    private func deliver(_ batch: ClaimedBatch, maxEvents: Int) async -> Bool {
        // A page's record holds many events: room for all of them at once, so the array never grows.
        var items: [EventRecord] = []
        items.reserveCapacity(batch.events)
        var letters: [DeadLetterEntry] = []
        for record in batch.records {
            do { try EventRecord.read(record, into: &items) } catch {
                letters.append(DeadLetterEntry(record: record, reason: "unreadable stored record: \(error)"))
            }
        }
        if batch.attempts >= configuration.interruptedDeliveryLimit {
            // Each earlier delivery of these events ended with the process: a reply that stops it every time
            // it comes would stop it for ever. Kept, not sent.
            let reason = "not sent: \(batch.attempts) deliveries of its batch were cut short by the process stopping "
                + "(TrackerConfiguration.interruptedDeliveryLimit is \(configuration.interruptedDeliveryLimit)); requeue to try again"
            letters += items.map { DeadLetterEntry(record: $0.standaloneBytes(), reason: reason) }
            counters.withLock { $0.lastError = "\(destination.name): a batch of \(items.count) events dead-lettered after \(batch.attempts) interrupted deliveries" }
            items = []
        }
        // A page's record holds many events: a batch may hold more than a request takes.
        var start = 0
        while start < items.count {
            let end = min(items.count, start + maxEvents)
            let lettersBefore = letters.count
            guard await deliver(items[start..<end], deadLetters: &letters) else { return false }
            // Sent before the rest of the batch: no longer pending (settling the batch settles the rest).
            if end < items.count {
                let sent = end - start - (letters.count - lettersBefore)
                control.withLock { $0.deliveredUnsettled[batch.id, default: 0] += sent }
            }
            start = end
        }
        // The batch is forgotten only once its dead letters are kept: nothing goes unrecorded.
        while true {
            do {
                try await store.settle(batch, deadLetters: letters)
                break
            } catch {
                if Task.isCancelled { return false }
                noteDiskError("cannot settle a delivered batch: \(error)")
                do { try await clock.sleep(for: configuration.retryPolicy.initialDelay) } catch { return false }
            }
        }
        control.withLock { $0.deliveredUnsettled[batch.id] = nil }
        if !letters.isEmpty { counters.withLock { $0.deadLettered += letters.count } }
        settledBell.ring()
        return true
    }

    /// Screens, sends, and settles every event of `items`, adding those to dead-letter (with their
    /// reasons) to `deadLetters`; false when cancelled before that.
    func deliver(_ items: ArraySlice<EventRecord>,
                 deadLetters: inout [DeadLetterEntry]) async -> Bool {
        let now = clock.now()
        // Usually nothing is screened out, and then the items are sent as they are, without a copy.
        var reasons: [(Int, String)] = []
        for index in items.indices {
            if let reason = destination.screen(items[index], now: now) { reasons.append((index, reason)) }
        }
        var sendable = items
        if !reasons.isEmpty {
            let screened = Set(reasons.map(\.0))
            deadLetters += reasons.map { DeadLetterEntry(record: items[$0.0].standaloneBytes(), reason: $0.1) }
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
                      deadLetters: inout [DeadLetterEntry]) async -> Bool {
        var remaining = items
        while !remaining.isEmpty {
            guard let turn = await waitForTurn() else { return false }
            let probing = turn != .send
            let sending = probing ? remaining.prefix(1) : remaining
            let request = destination.request(for: Array(sending))
            let verdict: DeliveryVerdict
            var reply: VendorReply?
            let started = configuration.observer == nil ? .zero : clock.continuousTime()
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
            if let observer = configuration.observer {
                observer.requestEnded(TrackingRequestEnd(events: sending.count, bytes: request.body.count,
                                                         duration: clock.continuousTime() - started, outcome: verdict.outcome),
                                      destination: destination.name)
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
                deadLetters.append(DeadLetterEntry(record: sending.first!.standaloneBytes(), reason: reason))
            case .tooLarge where sending.count == 1:
                let replyText = reply?.bodyText() ?? ""
                let said = replyText.isEmpty ? "" : " (\(destination.name) said: \(replyText))"
                deadLetters.append(DeadLetterEntry(record: sending.first!.standaloneBytes(),
                                                   reason: "HTTP 413: the event alone is larger than \(destination.name) accepts\(said)"))
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
                            deadLetters: inout [DeadLetterEntry]) async -> Bool {
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

    /// Counts a disk error met while delivering (``TrackingStatistics/deliveryDiskErrors``).
    private func noteDiskError(_ message: String) {
        counters.withLock { counters in
            counters.lastError = message
            counters.deliveryDiskErrors += 1
            counters.deliveryDiskError = message
        }
    }
}
