import Foundation

/// Accepts interactions, journals them, and delivers them to one destination in batches, retrying
/// until the vendor stores them or refuses them for a reason (then they are dead-lettered).
///
/// ```swift
/// let tracker = try Tracker(destination: SegmentifyDestination(dataCenter: url, apiKey: key, origin: "shop.example"),
///                           configuration: TrackerConfiguration(journal: journalURL))
/// try tracker.track(.widgetView(of: widget, context: context))
/// let summary = await tracker.shutdown(deadline: .seconds(5))
/// ```
///
/// One tracker owns one journal directory and delivers to one destination; to deliver the same
/// interactions to two vendors, run two trackers with two directories (each pauses on its own).
/// Always call ``shutdown(deadline:)`` before dropping a tracker: its sender tasks keep it alive.
public final class Tracker: Sendable {
    /// Where events go.
    public let destination: any TrackingDestination
    /// How they are stored and sent.
    public let configuration: TrackerConfiguration
    /// What opening the journal found (torn tails, pending events).
    public let recoveryReport: JournalRecoveryReport

    let journal: Journal
    let deadLetterStore: DeadLetterStore
    let transport: any Transport
    let clock: any TrackingClock
    let run = UInt64.random(in: 1...UInt64.max)
    let counters = Locked(TrackingStatistics())
    let control = Locked(Control())
    /// Wakes idle senders: appends that reach the serial they wait for (the journal tells), commits,
    /// flushes, shutdown.
    let senderBell = Doorbell()
    /// Rung when the delivery gate changes (opens, or its probe is free again), for senders waiting on it.
    let gateBell = Doorbell()
    /// Rung when a batch is settled (delivered or dead-lettered), for ``waitUntilIdle(timeout:)``.
    let settledBell = Doorbell()

    struct Control {
        var gate = DeliveryGate()
        var forceFlush = false
        var draining = false
        var lastForcePush: ContinuousClock.Instant?
        var tasks: [Task<Void, Never>] = []
        var shutdown: Task<ShutdownSummary, Never>?
    }

    /// Opens (or creates) the journal, recovers what a previous run left, and starts delivering.
    ///
    /// - Throws: ``TrackingError`` when the journal cannot be opened or another process holds it.
    public convenience init(destination: any TrackingDestination, configuration: TrackerConfiguration,
                            transport: any Transport = URLSessionTransport.shared,
                            clock: any TrackingClock = SystemTrackingClock()) throws(TrackingError) {
        let segmentBytes = max(4096, min(configuration.segmentBytes, configuration.maxJournalBytes / 4))
        let storage: any JournalStorage
        if configuration.durability == .memory {
            storage = MemoryJournalStorage(reserve: segmentBytes + 512 * 1024)
        } else if let directory = configuration.journal {
            storage = FileJournalStorage(directory: directory)
        } else {
            throw .configuration("a journal directory is needed unless durability is .memory")
        }
        try self.init(destination: destination, configuration: configuration, storage: storage, transport: transport, clock: clock)
    }

    /// A tracker over any journal storage (the tests' fault-injecting one, say).
    init(destination: any TrackingDestination, configuration: TrackerConfiguration, storage: any JournalStorage,
         transport: any Transport, clock: any TrackingClock) throws(TrackingError) {
        self.destination = destination
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        let segmentBytes = max(4096, min(configuration.segmentBytes, configuration.maxJournalBytes / 4))
        var report: JournalRecoveryReport
        (journal, report) = try Journal.open(storage: storage, durability: configuration.durability,
                                             maxBytes: configuration.maxJournalBytes, segmentBytes: segmentBytes)
        deadLetterStore = DeadLetterStore(storage: storage, durable: configuration.durability != .memory)
        // When it cannot be cut off (a disk error), it stays where it is, listed as dead-letter damage; the
        // letters added after it are still read.
        if let cut = try? deadLetterStore.cutOffAWriteCutShort() { report.damage.append(cut) }
        recoveryReport = report
        counters.withLock { $0.pending = recoveryReport.pendingEvents }
        start()
    }

    private func start() {
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<max(1, configuration.maxConcurrentRequests) {
            tasks.append(Task.detached { [self] in await self.sendLoop() })
        }
        if case .batched(let interval) = configuration.durability {
            // The commit itself on a queue of its own: it waits in write and fsync, for seconds on a slow
            // disk, and each of Swift's cooperative threads (as many as the machine has cores) it held
            // that long was one the process's other tasks, its requests' handlers, could not use.
            let disk = DispatchQueue(label: "RecoKit.Tracker.commit")
            tasks.append(Task.detached { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    await withCheckedContinuation { (committed: CheckedContinuation<Void, Never>) in
                        disk.async {
                            do { try self.journal.commit() } catch { self.counters.withLock { $0.lastError = "\(error)" } }
                            committed.resume()
                        }
                    }
                }
            })
        }
        control.withLock { $0.tasks = tasks }
    }

    /// What ``track(_:)`` checks before it journals: the interaction's shape and the destination's own
    /// rules. Nothing is journaled or counted; a caller that must take several events all or none checks
    /// each first.
    /// - Throws: ``TrackingError/invalid(_:)`` naming what is wrong.
    public func check(_ interaction: Interaction) throws(TrackingError) {
        do {
            try interaction.checkShape()
            try destination.validate(interaction)
        } catch {
            throw .invalid(error)
        }
    }

    /// Validates the interaction, gives it an id, and journals it.
    ///
    /// Returns the event's id once the event is as durable as ``TrackerConfiguration/durability`` says.
    /// It is synchronous on purpose: it never waits for the network, only for the journal, so a caller
    /// on any actor (the main actor, a request handler's) tracks without hopping executors. In `strict`
    /// durability it blocks the calling thread for the fsync of the event (milliseconds on a slow disk);
    /// `batched` returns at once and makes events durable within the batched interval.
    /// - Throws: ``TrackingError/invalid(_:)`` for a bad interaction, ``TrackingError/queueFull`` when
    ///   the journal is at its limit, ``TrackingError/shutDown`` after shutdown began.
    @discardableResult
    public func track(_ interaction: Interaction) throws(TrackingError) -> EventID {
        let (id, serial, wakes) = try journalEvent(interaction)
        if configuration.durability == .strict { try journal.makeDurable(upTo: serial) }
        // In memory a record is readable at once (a take publishes it); in strict mode once durable, now.
        if wakes { senderBell.ring() }
        counters.withLock { $0.accepted += 1 }
        if interaction.forcePush { try requestForcedFlush() }
        return id
    }

    /// Validates and journals the interaction like ``track(_:)``, but returns without waiting for the
    /// disk in any durability mode: the event is durable once the next ``commit()`` returns (or, in
    /// `batched` mode, the next background commit). A caller that takes many events at once pays one
    /// `fsync` for all of them, and acknowledges them only after that commit:
    ///
    /// ```swift
    /// let ids = try lines.map { try tracker.trackUntilCommit($0) }
    /// try tracker.commit()          // one fsync for every line
    /// acknowledge(ids)              // now durable
    /// ```
    ///
    /// `recokit relay` reads what stdin holds, journals it this way, commits once and then acknowledges.
    /// - Throws: as ``track(_:)``.
    @discardableResult
    public func trackUntilCommit(_ interaction: Interaction) throws(TrackingError) -> EventID {
        let (id, _, wakes) = try journalEvent(interaction)
        if wakes, configuration.durability == .memory { senderBell.ring() }
        counters.withLock { $0.accepted += 1 }
        if interaction.forcePush { try requestForcedFlush() }
        return id
    }

    /// Checks and appends one event (not yet made durable); its id and its serial in the journal (for
    /// `makeDurable(upTo:)`).
    private func journalEvent(_ interaction: Interaction) throws(TrackingError) -> (EventID, Int, wakesSenders: Bool) {
        do {
            try check(interaction)
        } catch {
            counters.withLock { $0.refusedInvalid += 1 }
            throw error
        }
        // The journal gives the sequence number (patched into the record) under the same lock as the append.
        let appended: (serial: Int, sequence: UInt64, wakesSenders: Bool)
        do {
            appended = try EventCodec.withRecord(id: EventID(run: run, sequence: 0), interaction: interaction) { (record) throws(TrackingError) in
                try journal.append(record, assigningSequence: true)
            }
        } catch {
            if error.isQueueFull { counters.withLock { $0.refusedQueueFull += 1 } }
            throw error
        }
        return (EventID(run: run, sequence: appended.sequence), appended.serial, appended.wakesSenders)
    }

    /// Tracks an interaction after checking it against the widget it names: the widget's instance id
    /// and, for a click, a product the widget holds (the position is filled in from the widget).
    @discardableResult
    public func track<P>(_ interaction: Interaction, shownIn widget: Widget<P>) throws(TrackingError) -> EventID {
        var checked = interaction
        do { try checked.check(against: widget) } catch {
            counters.withLock { $0.refusedInvalid += 1 }
            throw .invalid(error)
        }
        return try track(checked)
    }

    func requestForcedFlush() throws(TrackingError) {
        let allowed = control.withLock { state -> Bool in
            if let last = state.lastForcePush, last.duration(to: .now) < configuration.forcePushInterval { return false }
            state.lastForcePush = .now
            return true
        }
        guard allowed else { return }
        try journal.commit()
        control.withLock { $0.forceFlush = true }
        senderBell.ring()
    }

    /// Makes every accepted event durable now (in `batched` mode, closes the loss window).
    public func commit() throws(TrackingError) {
        try journal.commit()
        senderBell.ring()
    }

    /// Sends what the journal holds now, without waiting for full batches.
    public func flush() throws(TrackingError) {
        try journal.commit()
        control.withLock { $0.forceFlush = true }
        senderBell.ring()
    }

    /// The counters and the journal's state.
    public var statistics: TrackingStatistics {
        var snapshot = counters.withLock { $0 }
        journal.withState { state in
            snapshot.pending = state.pending
            snapshot.journalBytes = state.totalBytes
            snapshot.diskError = state.diskError?.message
            snapshot.damage = state.damage
        }
        return snapshot
    }

    /// The dead letters on disk, oldest first, in one array. The file grows for as long as a vendor
    /// refuses events: to go through a large one, see ``deadLetters(each:)``.
    public func deadLetters() throws(TrackingError) -> [DeadLetter] { try deadLetterStore.list().map(\.letter) }

    /// Hands each dead letter on disk to `body`, oldest first, as the file is read a few megabytes at a time,
    /// without keeping them; returns how many. A re-queue that forgets letters meanwhile ends it there (the
    /// letters it forgot are pending again).
    @discardableResult
    public func deadLetters(each body: (DeadLetter) -> Void) throws(TrackingError) -> Int {
        var count = 0
        _ = try deadLetterStore.read { (letters: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in
            for letter in letters { body(letter.letter) }
            count += letters.count
        }
        return count
    }

    /// Moves every dead letter back into the journal (same ids) for another try; returns how many. Letters
    /// the sender writes meanwhile stay dead-lettered, for the next call; calls made at once take turns.
    @discardableResult
    public func requeueDeadLetters() throws(TrackingError) -> Int {
        try deadLetterStore.requeue { letters throws(TrackingError) in
            for letter in letters { _ = try journal.append(letter.payload, assigningSequence: false) }
            try journal.commit()
            senderBell.ring()
        }
    }
}
