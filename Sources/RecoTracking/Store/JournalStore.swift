import Foundation

/// The store of one machine: a journal of checksummed segment files in a directory of its own, or the
/// same in memory (``memory(maxBytes:)``) for tests and benchmarks.
///
/// ```swift
/// let store = try JournalStore(directory: URL(fileURLWithPath: "/var/lib/shop/tracking/segmentify"))
/// let tracker = Tracker(destination: destination, store: store)
/// ```
///
/// One process holds a directory at a time (it is locked), and it holds one destination's queue: to
/// deliver to two vendors, give each tracker a directory of its own. When it opens, it recovers what the
/// last process left: torn tails and damage are reported in ``recoveryReport`` and moved to
/// `quarantine.log`, never skipped in silence. What an append promises is its ``Durability``.
///
/// Where a process stopped while delivering (killed, or crashed by a vendor's reply), the batch it was
/// sending is claimed again with its ``ClaimedBatch/attempts`` counted, and the recovery report says so.
public final class JournalStore: TrackingStore, @unchecked Sendable {
    /// What opening the journal found (torn tails, damage, pending events, deliveries cut short).
    public let recoveryReport: JournalRecoveryReport
    /// When an accepted event is on disk.
    public let durability: Durability

    let journal: Journal
    let deadLetterStore: DeadLetterStore
    private let storage: any JournalStorage
    private let clock: any TrackingClock
    /// Rung when records become claimable (an append that completes a batch, a commit, a requeue).
    private let recordsBell = Doorbell()
    private let claims = Locked(Claims())
    /// Commits wait in `write` and `fsync`, reads and checkpoints in `pread` and `rename`: each on a queue
    /// of its own, never on one of Swift's cooperative threads, which a slow disk would hold from the
    /// process's other tasks. In memory there is no disk, and no hop.
    private let commitQueue = DispatchQueue(label: "RecoKit.JournalStore.commit")
    private let deliveryQueue = DispatchQueue(label: "RecoKit.JournalStore.delivery")

    private struct Claims {
        var next: UInt64 = 0
        var batches: [UInt64: JournalBatch] = [:]
        /// When the first record of each claimed batch happened, in epoch milliseconds.
        var firstOccurred: [UInt64: Int64] = [:]
        /// Batches claimed and not settled, by where they start, with the attempts before this one:
        /// what ``DeliveryMarks`` keeps on disk.
        var open: [JournalPosition: Int] = [:]
        /// Batches a stopped process was delivering, by where they start, with their attempts.
        var interrupted: [JournalPosition: Int] = [:]
        /// The disk failed to read the marks at open: read them again before the first claim replaces them.
        var marksUnread = false
        /// The request of the last claim: what a full batch is, and how long records may wait.
        var lastRequest: ClaimRequest?
        /// A write of the buffer is queued (``writeOutSoon()``).
        var writingOut = false
        /// Faults met while settling and got past.
        var deliveryFaults = 0
        var lastDeliveryFault: String?
    }

    /// Opens (or creates) the journal in `directory` and recovers what a previous process left.
    /// - Parameters:
    ///   - directory: the journal's own directory (created if missing); nil only with ``Durability/memory``.
    ///   - durability: when an accepted event is on disk (``Durability/batched`` by default).
    ///   - maxBytes: the journal's size limit; appends are refused with ``TrackingError/queueFull`` beyond
    ///     it (512 MiB by default).
    ///   - segmentBytes: a segment file's size before the next begins (8 MiB by default).
    /// - Throws: ``TrackingError`` when the directory cannot be opened or another process holds it.
    public convenience init(directory: URL?, durability: Durability = .batched, maxBytes: Int = 512 << 20,
                            segmentBytes: Int = 8 << 20, clock: any TrackingClock = SystemTrackingClock()) throws(TrackingError) {
        let storage: any JournalStorage
        if durability == .memory {
            storage = MemoryJournalStorage(reserve: Self.segmentBytes(segmentBytes, maxBytes: maxBytes) + 512 * 1024)
        } else if let directory {
            storage = FileJournalStorage(directory: directory)
        } else {
            throw .configuration("a journal directory is needed unless durability is .memory")
        }
        try self.init(storage: storage, durability: durability, maxBytes: maxBytes, segmentBytes: segmentBytes, clock: clock)
    }

    /// A journal in memory: nothing survives the process. For tests and benchmarks.
    public static func memory(maxBytes: Int = 512 << 20) -> JournalStore {
        // A journal in memory has nothing to recover and no lock to take: it opens.
        try! JournalStore(directory: nil, durability: .memory, maxBytes: maxBytes)
    }

    /// A journal over any storage (the tests' fault-injecting one, say).
    init(storage: any JournalStorage, durability: Durability, maxBytes: Int, segmentBytes: Int,
         clock: any TrackingClock = SystemTrackingClock()) throws(TrackingError) {
        self.storage = storage
        self.durability = durability
        self.clock = clock
        var report: JournalRecoveryReport
        (journal, report) = try Journal.open(storage: storage, durability: durability, maxBytes: maxBytes,
                                             segmentBytes: Self.segmentBytes(segmentBytes, maxBytes: maxBytes), clock: clock)
        deadLetterStore = DeadLetterStore(storage: storage, durable: durability != .memory)
        // When it cannot be cut off (a disk error), it stays where it is, listed as dead-letter damage; the
        // letters added after it are still read.
        if let cut = try? deadLetterStore.cutOffAWriteCutShort() { report.damage.append(cut) }
        var marksError: TrackingError?
        if durability != .memory {
            do {
                let interrupted = try Self.interruptedDeliveries(storage, after: journal.checkpoint)
                report.interruptedDeliveries = interrupted.count
                report.mostInterruptions = interrupted.values.max() ?? 0
                claims.withLock { $0.interrupted = interrupted }
            } catch {
                marksError = error.trackingError
                claims.withLock { $0.marksUnread = true }
            }
        }
        recoveryReport = report
        // Marks the disk failed to read lose no event (each batch goes out again as ever), only the count of
        // the deliveries a stop cut short, which keeps a reply that takes the process down from being sent
        // for ever (``TrackerConfiguration/interruptedDeliveryLimit``): the error is named as a disk error
        // met while delivering (the run's failure), and the first claim reads the marks again before it
        // writes them anew.
        if let marksError { noteDeliveryFault(marksError) }
        // What was pending when it opened happened no later than its first record. A disk that cannot read
        // it is counted as a disk error met while delivering (the run's failure, named); delivery reads the
        // record again when it comes to it.
        do {
            if let first = try journal.oldestPendingRecord(), let millis = StoredRecord.occurredMilliseconds(in: first) {
                journal.withState { $0.occurred.note(record: $0.takenRecords + $0.lostRecords, millis: millis) }
            }
        } catch {
            noteDeliveryFault(error)
        }
    }

    private static func segmentBytes(_ bytes: Int, maxBytes: Int) -> Int { max(4096, min(bytes, maxBytes / 4)) }

    public var location: String { storage.location }

    public var commitInterval: Duration? {
        if case .batched(let interval) = durability { return interval }
        return nil
    }

    // MARK: Intake

    public func append(_ record: StoredRecord) throws(TrackingError) {
        try append(bytes: record.bytes)
    }

    /// Takes one record's bytes where they lie: a ``Tracker`` hands over the room it wrote the record in,
    /// which the journal copies into its buffer (no array per record).
    func append(bytes: some RandomAccessCollection<UInt8>) throws(TrackingError) {
        let (serial, wakes, writeOut) = try journal.append(bytes)
        if durability == .strict { try journal.makeDurable(upTo: serial) }
        if writeOut { writeOutSoon() }
        // In memory a record is claimable at once; in strict mode once durable, which it now is. Otherwise
        // it is claimable after the next commit, which rings.
        if wakes, durability == .memory || durability == .strict { recordsBell.ring() }
    }

    /// Writes the buffer out on the commit queue, not on the appender's thread (a request handler's), once:
    /// later appends find the write already asked for. Its failure stays the journal's, for the next commit
    /// and appends to report.
    private func writeOutSoon() {
        guard durability != .memory else {
            _ = try? journal.commit()
            return
        }
        guard claims.withLock({ claims -> Bool in
            defer { claims.writingOut = true }
            return !claims.writingOut
        }) else { return }
        commitQueue.async {
            self.claims.withLock { $0.writingOut = false }
            _ = try? self.journal.commit()
            self.recordsBell.ring()
        }
    }

    public func commit() async throws(TrackingError) {
        try await onQueue(commitQueue) { () throws(TrackingError) in try self.journal.commit() }
        recordsBell.ring()
    }

    // MARK: Delivery

    public func claim(_ request: ClaimRequest) async throws(TrackingError) -> ClaimedBatch? {
        claims.withLock { $0.lastRequest = request }
        return try await onQueue(deliveryQueue) { () throws(TrackingError) -> ClaimedBatch? in
            if self.claims.withLock({ $0.marksUnread }) { self.readMarksAgain() }
            guard let taken = try self.journal.take(maxCount: request.maxEvents, maxBytes: request.maxBytes,
                                                    interval: request.linger, force: request.force) else { return nil }
            let (id, attempts, marks) = self.claims.withLock { claims -> (UInt64, Int, [JournalPosition: Int]) in
                claims.next += 1
                claims.batches[claims.next] = taken
                claims.firstOccurred[claims.next] = taken.payloads.first.flatMap(StoredRecord.occurredMilliseconds(in:))
                let attempts = claims.interrupted.removeValue(forKey: taken.start) ?? 0
                claims.open[taken.start] = attempts
                return (claims.next, attempts, claims.open)
            }
            self.writeMarks(marks)
            return ClaimedBatch(id: id, records: taken.payloads, events: taken.events, attempts: attempts, trouble: taken.readError)
        }
    }

    public func settle(_ batch: ClaimedBatch, deadLetters: [DeadLetterEntry]) async throws(TrackingError) {
        guard let taken = claims.withLock({ $0.batches[batch.id] }) else { return }
        try await onQueue(deliveryQueue) { () throws(TrackingError) in
            // The batch is forgotten only once its dead letters are on disk: nothing goes unrecorded.
            if !deadLetters.isEmpty {
                try self.deadLetterStore.add(deadLetters.map { ($0.record, $0.reason) }, at: self.clock.now())
            }
            let marks = self.claims.withLock { claims -> [JournalPosition: Int] in
                claims.batches[batch.id] = nil
                claims.firstOccurred[batch.id] = nil
                claims.open[taken.start] = nil
                return claims.open
            }
            if let failure = self.journal.acknowledge(taken) { self.noteDeliveryFault(failure) }
            self.writeMarks(marks)
        }
    }

    /// The journal hands a batch out once per process: one given back stays in the journal, after the
    /// checkpoint, and goes out again when the journal next opens.
    public func giveBack(_ batch: ClaimedBatch) async {
        let marks = claims.withLock { claims -> [JournalPosition: Int]? in
            guard let taken = claims.batches.removeValue(forKey: batch.id) else { return nil }
            claims.firstOccurred[batch.id] = nil
            claims.open[taken.start] = nil
            return claims.open
        }
        if let marks { await onQueue(deliveryQueue) { self.writeMarks(marks) } }
    }

    /// The deliveries a stopped process cut short, from its marks: those at or after the checkpoint, with
    /// their attempts counting the one cut short.
    private static func interruptedDeliveries(_ storage: any JournalStorage,
                                              after checkpoint: JournalPosition) throws(JournalStorageError) -> [JournalPosition: Int] {
        try DeliveryMarks.read(storage).filter { $0.key >= checkpoint }.mapValues { $0 + 1 }
    }

    /// Reads the marks that the disk failed to read at open, once, before the first claim writes them anew
    /// (nothing was settled since, so the checkpoint is still where it was). A second failure is named
    /// too; the marks are then written anew, their counts lost (the deliveries themselves are not).
    private func readMarksAgain() {
        do {
            let interrupted = try Self.interruptedDeliveries(storage, after: journal.checkpoint)
            claims.withLock { claims in
                claims.interrupted.merge(interrupted) { kept, _ in kept }
                claims.marksUnread = false
            }
        } catch {
            claims.withLock { $0.marksUnread = false }
            noteDeliveryFault(error.trackingError)
        }
    }

    /// Keeps the batches out for delivery on disk, with their attempts, so that the next process knows
    /// which deliveries a stop cut short. Written over in place, not synced: it must survive the
    /// process, not the machine.
    private func writeMarks(_ marks: [JournalPosition: Int]) {
        guard durability != .memory else { return }
        do { try DeliveryMarks.write(marks, to: storage) } catch { noteDeliveryFault(error.trackingError) }
    }

    private func noteDeliveryFault(_ error: TrackingError) {
        claims.withLock {
            $0.deliveryFaults += 1
            $0.lastDeliveryFault = error.message
        }
    }

    // MARK: Waking

    public var recordsMark: UInt64 { recordsBell.generation }

    public func waitForRecords(after mark: UInt64, timeout: Duration) async {
        // Woken by the append that fills a batch (or by the first one, when nothing waits to be taken), or
        // when the oldest record's linger ends: not by every append.
        let request = claims.withLock { $0.lastRequest }
        var wait = timeout
        if let request {
            let (untaken, since) = journal.wakeSenders { lastSerial, untaken in
                untaken == 0 ? lastSerial + 1 : lastSerial + max(1, request.maxEvents - untaken)
            }
            if durability == .memory, untaken >= request.maxEvents { return }
            if let since { wait = min(wait, max(.milliseconds(1), request.linger - (journal.now() - since))) }
            else if untaken > 0 { wait = min(wait, request.linger) }
        }
        await recordsBell.wait(after: mark, timeout: wait)
    }

    public func wake() { recordsBell.ring() }

    // MARK: What it holds

    public var status: TrackingStoreStatus {
        var status = TrackingStoreStatus()
        var oldest: Int64?
        journal.withState { state in
            oldest = state.untaken > 0 ? state.occurred.oldest : nil
            status.pendingEvents = state.pending
            status.pendingBytes = state.totalBytes
            status.claimedEvents = state.inFlight.values.reduce(0, +)
            status.error = state.diskError?.message
            status.damage = state.damage
        }
        claims.withLock {
            status.deliveryFaults = $0.deliveryFaults
            status.lastDeliveryFault = $0.lastDeliveryFault
            if let claimed = $0.firstOccurred.values.min() { oldest = min(oldest ?? claimed, claimed) }
        }
        if status.pendingEvents > 0 { status.oldestPending = oldest.map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        return status
    }

    public func deadLetters(each body: (DeadLetter) -> Void) async throws(TrackingError) -> Int {
        var count = 0
        _ = try deadLetterStore.read { (letters: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in
            for letter in letters { body(letter.letter) }
            count += letters.count
        }
        return count
    }

    /// Letters written meanwhile stay dead letters, for the next call; calls made at once take turns.
    public func requeueDeadLetters() async throws(TrackingError) -> Int {
        let count = try await onQueue(deliveryQueue) { () throws(TrackingError) -> Int in
            try self.deadLetterStore.requeue { letters throws(TrackingError) in
                for letter in letters { _ = try self.journal.append(letter.payload) }
                try self.journal.commit()
            }
        }
        recordsBell.ring()
        return count
    }

    public func close() async throws(TrackingError) {
        journal.closeIntake()
        // Durable on commit: what no commit covered was never promised, and is not written now.
        let committing = durability != .onCommit
        let failure = await onQueue(commitQueue) { self.journal.close(committing: committing) }
        recordsBell.ring()
        if let failure { throw failure }
    }

    /// Stops taking appends (reads and settlements go on).
    func closeIntake() { journal.closeIntake() }

    // MARK: Queues

    /// Runs `work` on `queue` (at once in memory, where nothing waits for a disk) and returns its result.
    private func onQueue<Result: Sendable>(_ queue: DispatchQueue,
                                           _ work: @escaping @Sendable () throws(TrackingError) -> Result) async throws(TrackingError) -> Result {
        if durability == .memory { return try work() }
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<Swift.Result<Result, TrackingError>, Never>) in
            queue.async { done.resume(returning: Swift.Result { () throws(TrackingError) in try work() }) }
        }
        return try outcome.get()
    }

    private func onQueue<Result: Sendable>(_ queue: DispatchQueue, _ work: @escaping @Sendable () -> Result) async -> Result {
        if durability == .memory { return work() }
        return await withCheckedContinuation { done in queue.async { done.resume(returning: work()) } }
    }
}
