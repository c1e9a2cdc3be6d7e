import Foundation

/// A tracker's journal directory seen from outside a tracker: what it holds, and re-queueing dead
/// letters. It takes the directory's lock, so it fails while a tracker (or `recokit relay`) uses it.
///
/// ```swift
/// let contents = try JournalDirectory.inspect(URL(fileURLWithPath: "/var/lib/shop/tracking"))
/// print(contents.pending, contents.deadLetters.map(\.reason))
/// ```
public enum JournalDirectory {
    /// What a journal directory holds.
    public struct Contents: Sendable {
        /// Events waiting for delivery.
        public var pending: Int
        /// Events refused, with reasons.
        public var deadLetters: [DeadLetter]
        /// What reading the journal found.
        public var recovery: JournalRecoveryReport
        /// Bytes of segment files.
        public var journalBytes: Int
    }

    /// Reads the directory (cutting off torn tails, as a tracker would on start).
    public static func inspect(_ directory: URL) throws(TrackingError) -> Contents {
        let (journal, report) = try Journal.open(directory: directory, durability: .strict, maxBytes: .max, segmentBytes: 8 << 20)
        defer { journal.close() }
        let store = try DeadLetterStore(directory: directory, durable: true)
        defer { store.close() }
        return Contents(pending: journal.pendingCount, deadLetters: try store.list().map(\.letter), recovery: report,
                        journalBytes: journal.bytes)
    }

    /// Moves every dead letter back to pending (same ids); returns how many. A crash in between can
    /// leave a letter both pending and dead (delivered twice at worst), never neither.
    @discardableResult
    public static func requeue(_ directory: URL) throws(TrackingError) -> Int {
        let (journal, _) = try Journal.open(directory: directory, durability: .strict, maxBytes: .max, segmentBytes: 8 << 20)
        defer { journal.close() }
        let store = try DeadLetterStore(directory: directory, durable: true)
        defer { store.close() }
        let letters = try store.list()
        for letter in letters { _ = try journal.append(letter.payload, assigningSequence: false) }
        try journal.commit()
        try store.removeAll()
        return letters.count
    }
}
