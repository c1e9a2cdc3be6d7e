import Foundation

/// A tracker's journal directory seen from outside a tracker: what it holds, repairing it, and
/// re-queueing dead letters.
///
/// ``inspect(_:eachDeadLetter:)`` only reads: it creates, changes and deletes nothing, and it fails while a tracker (or
/// `recokit relay`) has the directory open. ``repair(_:eachDeadLetter:)`` and ``requeue(_:)`` change the directory and
/// need it to themselves.
///
/// ```swift
/// let contents = try JournalDirectory.inspect(URL(fileURLWithPath: "/var/lib/shop/tracking"))
/// print(contents.pending, contents.deadLetters.map(\.reason))
/// ```
public enum JournalDirectory {
    /// What a journal directory holds.
    public struct Contents: Sendable {
        /// Events waiting for delivery (a page's record counts its impressions, one event each).
        public var pending: Int
        /// Events refused, with reasons, oldest first (none when they were handed to an `eachDeadLetter`
        /// instead, see ``JournalDirectory/inspect(_:eachDeadLetter:)``).
        public var deadLetters: [DeadLetter]
        /// How many dead letters the directory holds.
        public var deadLetterCount: Int
        /// What reading the journal found (damage, a checkpoint that could not be used).
        public var recovery: JournalRecoveryReport
        /// Bytes of segment files.
        public var journalBytes: Int
        /// Unreadable stretches of the dead letters' file.
        public var deadLetterDamage: [String]
        /// Whether any damage found (in ``recovery`` or ``deadLetterDamage``) may have cost events: anything
        /// but a torn tail, a write cut short by a crash or a power loss (never durable, so it held nothing a
        /// durable promise covered; see ``JournalRecoveryReport/Damage/isInterruptedWrite``).
        public var mayHaveLostEvents: Bool
    }

    /// Reads the directory without changing it: damage is reported, not repaired.
    ///
    /// The dead letters are kept in ``Contents/deadLetters``, or, when `eachDeadLetter` is given, handed
    /// to it one by one as they are read, oldest first, and not kept: the dead letters' file grows for as
    /// long as a vendor refuses events, and reading it so holds a few megabytes of it at a time.
    /// - Throws: ``TrackingError`` when the directory does not exist, is not a journal (it holds no
    ///   segment, checkpoint, dead-letter or quarantine file), or is in use by a tracker.
    public static func inspect(_ directory: URL, eachDeadLetter: ((DeadLetter) -> Void)? = nil) throws(TrackingError) -> Contents {
        try open(directory, mode: .readOnly, eachDeadLetter: eachDeadLetter)
    }

    /// Opens the directory as a tracker would and repairs what it finds: damaged stretches are copied to
    /// `quarantine.log`, each damaged segment is written anew with only the records still to deliver
    /// (so the records after the damage are delivered, and the next inspection finds none), delivered
    /// segments are deleted, and a dead-letter write cut short by a crash is cut off (into quarantine).
    /// Returns what it found, as ``inspect(_:eachDeadLetter:)`` would have (the dead letters handed to
    /// `eachDeadLetter` when given).
    @discardableResult
    public static func repair(_ directory: URL, eachDeadLetter: ((DeadLetter) -> Void)? = nil) throws(TrackingError) -> Contents {
        try open(directory, mode: .repair, eachDeadLetter: eachDeadLetter)
    }

    /// Moves every dead letter back to pending (same ids); returns how many. A crash in between can
    /// leave a letter both pending and dead (delivered twice at worst), never neither; bytes of the
    /// dead-letter file that hold no readable letter are copied to `quarantine.log` before it is emptied.
    @discardableResult
    public static func requeue(_ directory: URL) throws(TrackingError) -> Int {
        var recovery = JournalRecoveryReport()
        return try requeue(directory, recovery: &recovery)
    }

    /// ``requeue(_:)``, giving what opening the journal for it found (a disk error it got past, damage
    /// it moved to quarantine), for `recokit journal --requeue` to report.
    package static func requeue(_ directory: URL, recovery: inout JournalRecoveryReport) throws(TrackingError) -> Int {
        let storage = try journalStorage(directory)
        let journal: Journal
        (journal, recovery) = try Journal.open(storage: storage, durability: .strict, maxBytes: .max, segmentBytes: 8 << 20)
        defer { journal.close() }
        let store = DeadLetterStore(storage: storage, durable: true)
        return try store.requeue { letters throws(TrackingError) in
            for letter in letters { _ = try journal.append(letter.payload) }
            try journal.commit()
        }
    }

    private static func open(_ directory: URL, mode: Journal.OpenMode, eachDeadLetter: ((DeadLetter) -> Void)?) throws(TrackingError) -> Contents {
        let storage = try journalStorage(directory)
        var (journal, report) = try Journal.open(storage: storage, durability: .strict, maxBytes: .max, segmentBytes: 8 << 20, mode: mode)
        defer { journal.close() }
        let store = DeadLetterStore(storage: storage, durable: true)
        if mode == .repair, let cut = try store.cutOffAWriteCutShort() { report.damage.append(cut) }
        var count = 0
        var kept: [DeadLetter] = []
        _ = try store.read { (letters: [(letter: DeadLetter, payload: [UInt8])]) in
            count += letters.count
            if let eachDeadLetter {
                for letter in letters { eachDeadLetter(letter.letter) }
            } else {
                kept += letters.map(\.letter)
            }
        }
        let lost = report.damage.contains { !$0.isInterruptedWrite } || store.unreadable.contains { !$0.isInterruptedWrite }
        return Contents(pending: report.pendingEvents, deadLetters: kept, deadLetterCount: count, recovery: report,
                        journalBytes: journal.withState { $0.segments.reduce(0) { $0 + $1.size } }, deadLetterDamage: store.damage,
                        mayHaveLostEvents: lost)
    }

    /// The storage of a directory that exists and holds a journal.
    private static func journalStorage(_ directory: URL) throws(TrackingError) -> FileJournalStorage {
        let storage = FileJournalStorage(directory: directory)
        guard storage.exists() else { throw .journal("no journal at \(directory.path): no such directory") }
        let names: [String]
        do { names = try storage.list() } catch { throw error.trackingError }
        let known = [CheckpointFile.name, DeadLetterStore.fileName, JournalQuarantine.fileName]
        guard names.contains(where: { JournalState.segmentNumber($0) != nil || known.contains($0) }) else {
            throw .journal("\(directory.path) is not a journal: it holds no segment, checkpoint, dead-letter or quarantine file")
        }
        return storage
    }
}
