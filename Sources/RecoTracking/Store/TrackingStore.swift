import Foundation

/// Where a ``Tracker`` keeps the events it accepted until its destination has them: the extension point
/// for durable storage.
///
/// RecoKit ships ``JournalStore`` (files on one machine, or memory) and, in the companion package
/// `Integrations/`, a PostgreSQL store that a fleet shares. A store keeps one destination's queue: records
/// in, batches claimed out, each batch settled (its events delivered or dead-lettered) or given back. It
/// never reads a record: the tracker encodes and decodes them.
///
/// - Intake is synchronous and cheap (``append(_:)``): `track` calls it on the caller's thread. What an
///   append promises is the store's own (a journal's: ``Durability``); ``commit()`` makes every record
///   appended before it durable, and the tracker calls it every ``commitInterval``.
/// - Delivery is asynchronous: ``claim(_:)`` hands out a due batch, leased to this process where several
///   deliver; ``settle(_:deadLetters:)`` forgets it, keeping its dead letters, all or nothing;
///   ``giveBack(_:)`` returns it unsettled. A batch whose claim ended without either (the process died)
///   is claimed again, its ``ClaimedBatch/attempts`` counting the claims that ended so.
/// - ``waitForRecords(after:timeout:)`` and ``wake()`` let idle senders sleep until there is work.
/// - ``run()`` is the store's own long-lived work, if it has any (a shared store listening for other
///   processes' appends): the tracker's ``Tracker/run()`` runs it, and cancels it once it has drained.
public protocol TrackingStore: AnyObject, Sendable {
    /// What the store is, for messages: a journal's directory, a database and queue.
    var location: String { get }
    /// How often the tracker commits what was appended. Nil: the tracker never commits on its own (an
    /// append is as durable as it will be when it returns, or only its caller's commits make it durable).
    var commitInterval: Duration? { get }
    /// Takes one record (one event, or a page's impressions), all or none.
    /// - Throws: ``TrackingError/queueFull`` when the store is at its limit, ``TrackingError/shutDown``
    ///   once it is closed, or the store's own error (a failed disk), the record then not taken.
    func append(_ record: StoredRecord) throws(TrackingError)
    /// Makes every record appended before the call durable, sharing the work with concurrent callers.
    func commit() async throws(TrackingError)
    /// The next batch that is due (a full batch, one whose oldest record has waited ``ClaimRequest/linger``,
    /// or any when ``ClaimRequest/force``), claimed for this process; nil when none is.
    func claim(_ request: ClaimRequest) async throws(TrackingError) -> ClaimedBatch?
    /// Forgets a claimed batch: its events are delivered, but for `deadLetters`, which the store keeps with
    /// their reasons. Nothing of it is forgotten when this throws.
    func settle(_ batch: ClaimedBatch, deadLetters: [DeadLetterEntry]) async throws(TrackingError)
    /// Returns a claimed batch unsettled, to be claimed again (its attempt not counted).
    func giveBack(_ batch: ClaimedBatch) async
    /// A number that changes whenever records may have become claimable; read it before ``claim(_:)``.
    var recordsMark: UInt64 { get }
    /// Returns once records may have become claimable since `mark` was read, ``wake()`` was called, or
    /// `timeout` passed.
    func waitForRecords(after mark: UInt64, timeout: Duration) async
    /// Wakes every waiter of ``waitForRecords(after:timeout:)``.
    func wake()
    /// What this process knows of the store now (of a shared store, as of its last look).
    var status: TrackingStoreStatus { get }
    /// Hands each dead letter to `body`, oldest first; returns how many.
    func deadLetters(each body: (DeadLetter) -> Void) async throws(TrackingError) -> Int
    /// Moves every dead letter back into the queue, with its id, for another try; returns how many.
    func requeueDeadLetters() async throws(TrackingError) -> Int
    /// Commits what was appended (unless only its caller's commits may: see ``commitInterval``) and lets go
    /// of the store; appends are refused afterwards.
    func close() async throws(TrackingError)
    /// The store's own work for as long as a tracker over it runs (listening, housekeeping); returns once
    /// cancelled. ``Tracker/run()`` runs it beside its senders. By default there is none: it returns at once.
    func run() async
}

extension TrackingStore {
    /// No work of its own: returns at once.
    public func run() async {}
}

/// One record as a store keeps it: the bytes the tracker encoded, opaque to the store.
///
/// Every record starts the same way: a version byte, the run and sequence of its first event's id and its
/// `occurred` time in epoch milliseconds (8 bytes each, little endian), which ``firstEvent(in:)`` and
/// ``occurred(in:)`` read for a store that needs them without the rest.
public struct StoredRecord: Sendable, Hashable {
    /// The record's bytes.
    public var bytes: [UInt8]
    /// The id of its first event; the others follow in sequence (a page's impressions).
    public var firstEvent: EventID
    /// How many events it holds.
    public var events: Int

    /// A record.
    public init(bytes: [UInt8], firstEvent: EventID, events: Int) {
        self.bytes = bytes
        self.firstEvent = firstEvent
        self.events = events
    }

    /// The id of the first event of a stored record's bytes; nil when they are too short to hold one.
    public static func firstEvent(in bytes: some RandomAccessCollection<UInt8>) -> EventID? {
        guard bytes.count >= 25 else { return nil }
        return EventID(run: littleEndian(bytes, 1), sequence: littleEndian(bytes, 9))
    }

    /// When the first event of a stored record's bytes happened; nil when they are too short to say.
    public static func occurred(in bytes: some RandomAccessCollection<UInt8>) -> Date? {
        occurredMilliseconds(in: bytes).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// ``occurred(in:)`` in epoch milliseconds.
    static func occurredMilliseconds(in bytes: some RandomAccessCollection<UInt8>) -> Int64? {
        guard bytes.count >= 25 else { return nil }
        return Int64(bitPattern: littleEndian(bytes, 17))
    }

    /// The 8 bytes at `offset` (which the callers' length checks cover), by index: `journal.append` reads a
    /// record's time this way on every append.
    private static func littleEndian(_ bytes: some RandomAccessCollection<UInt8>, _ offset: Int) -> UInt64 {
        var index = bytes.index(bytes.startIndex, offsetBy: offset)
        var value: UInt64 = 0
        for shift in stride(from: UInt64(0), to: 64, by: 8) {
            value |= UInt64(bytes[index]) << shift
            bytes.formIndex(after: &index)
        }
        return value
    }
}

/// What a sender asks of ``TrackingStore/claim(_:)``.
public struct ClaimRequest: Sendable, Hashable {
    /// Most events in the batch (a record of more comes alone).
    public var maxEvents: Int
    /// Most bytes of records in the batch (the first record comes whatever its size).
    public var maxBytes: Int
    /// How long the oldest record may wait for a batch to fill.
    public var linger: Duration
    /// Whether to take what there is now, full or not.
    public var force: Bool
    /// How long the claim holds where several processes deliver: past it, another may claim the batch.
    public var lease: Duration

    /// A request.
    public init(maxEvents: Int, maxBytes: Int, linger: Duration, force: Bool = false, lease: Duration = .seconds(60)) {
        self.maxEvents = max(1, maxEvents)
        self.maxBytes = max(1, maxBytes)
        self.linger = linger
        self.force = force
        self.lease = lease
    }
}

/// A batch claimed for delivery.
public struct ClaimedBatch: Sendable {
    /// The store's name for the claim.
    public let id: UInt64
    /// The records, oldest first.
    public let records: [ArraySlice<UInt8>]
    /// How many events they hold.
    public let events: Int
    /// Earlier claims of these records that ended unsettled: a process stopped while delivering them.
    public let attempts: Int
    /// A fault the store met while claiming that did not stop it (a read error past the records given).
    public let trouble: TrackingError?

    /// A batch.
    public init(id: UInt64, records: [ArraySlice<UInt8>], events: Int, attempts: Int = 0, trouble: TrackingError? = nil) {
        self.id = id
        self.records = records
        self.events = events
        self.attempts = attempts
        self.trouble = trouble
    }
}

/// An event to dead-letter: its record (one event alone) and why.
public struct DeadLetterEntry: Sendable, Hashable {
    /// The event's record, as ``EventRecord/standaloneBytes()`` gives it.
    public var record: ArraySlice<UInt8>
    /// Why, in the vendor's words where it gave any.
    public var reason: String

    /// An entry.
    public init(record: ArraySlice<UInt8>, reason: String) {
        self.record = record
        self.reason = reason
    }
}

/// What a store holds.
public struct TrackingStoreStatus: Sendable, Hashable {
    /// Events accepted and neither delivered nor dead-lettered (nor lost to damage).
    public var pendingEvents = 0
    /// Bytes the store holds for them.
    public var pendingBytes = 0
    /// Of ``pendingEvents``, those claimed for delivery now.
    public var claimedEvents = 0
    /// When the first pending event happened (its `occurred`), if any is pending.
    public var oldestPending: Date?
    /// Dead letters kept, where the store counts them.
    public var deadLetters: Int?
    /// The store's last error (a failed disk, a lost connection), until an operation succeeds again.
    public var error: String?
    /// Damage found while running: stretches that could not be read back.
    public var damage: [JournalRecoveryReport.Damage] = []
    /// Faults met while settling batches and got past, nothing lost (a checkpoint not written: after a
    /// restart, those events go out again), and the last of them.
    public var deliveryFaults = 0
    public var lastDeliveryFault: String?

    /// A status.
    public init() {}

    /// How long the first pending event has waited at `now`; nil when nothing is pending.
    public func oldestPendingAge(now: Date) -> Duration? {
        oldestPending.map { .milliseconds(Int64(max(0, now.timeIntervalSince($0)) * 1000)) }
    }
}
