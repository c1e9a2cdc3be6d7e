import Foundation

/// Dead letters in the journal's storage (`dead-letters.log`, each record a version-1 frame): the
/// reason's length (4 bytes), the reason, the time in epoch milliseconds (8 bytes) and the journaled
/// event. A failed or short write is cut back to the last whole record and thrown: the caller then keeps
/// the events pending instead of forgetting them.
final class DeadLetterStore: @unchecked Sendable {
    static let fileName = "dead-letters.log"
    private let lock = NSLock()
    /// Held for a whole re-queue, so that two at once do not both journal the same letters.
    private let requeueLock = NSLock()
    private let storage: any JournalStorage
    private let durable: Bool
    /// The stretches the last reading found holding no readable letter.
    private(set) var unreadable: [Unreadable] = []
    /// The same, described with the file's name.
    var damage: [String] { unreadable.map { "\(Self.fileName): \($0.description)" } }
    /// How many times letters were forgotten (``remove(readUpTo:)``), a cut-short write cut off, or a
    /// write failed, to tell whether a reading is current.
    private var removals = 0

    /// Where a ``read()`` ended: the file's size then, how many removals had been made, and the stretches
    /// before it that held no readable letter (to quarantine when the letters are forgotten).
    struct ReadMark: Sendable, Equatable {
        var size: Int
        var removals: Int
        var unreadable: [Unreadable]
    }

    init(storage: any JournalStorage, durable: Bool) {
        self.storage = storage
        self.durable = durable
    }

    /// Adds dead letters; written and (when durable) synced before returning.
    func add(_ letters: [(payload: ArraySlice<UInt8>, reason: String)], at date: Date) throws(TrackingError) {
        guard !letters.isEmpty else { return }
        var bytes = [UInt8]()
        let millis = RecordWriter.milliseconds(of: date)
        for letter in letters {
            var record = [UInt8]()
            let reason = Array(letter.reason.utf8)
            RecordFrame.putUInt32(UInt32(reason.count), &record)
            record += reason
            RecordFrame.putUInt64(millis, &record)
            record += letter.payload
            RecordFrame.appendLegacy(record, to: &bytes)
        }
        lock.lock()
        defer { lock.unlock() }
        do throws(JournalStorageError) {
            let before = try storage.size(Self.fileName) ?? 0
            let wrote: Int
            do { wrote = try storage.append(Self.fileName, bytes[...]) } catch {
                try? storage.truncate(Self.fileName, to: before)
                throw error
            }
            guard wrote == bytes.count else {
                try? storage.truncate(Self.fileName, to: before)
                throw JournalStorageError(kind: .noSpace, description: "cannot write \(storage.location)/\(Self.fileName): short write")
            }
            if durable { try storage.sync(Self.fileName) }
        } catch {
            // A failed `sync` may have dropped every byte written since the last good one, letters that a
            // reading saw among them: the file no longer only grew since any reading made before.
            removals += 1
            throw error.trackingError
        }
    }

    /// Moves every dead letter back: `enqueue` journals (and commits) them, then they are forgotten (see
    /// ``remove(readUpTo:)``); returns how many. One re-queue at a time: a second caller waits, then finds
    /// only letters written since (two at once both journaled every letter, and while the vendor still
    /// refused them the duplicates doubled with every round).
    func requeue(_ enqueue: ([(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) -> Void) throws(TrackingError) -> Int {
        requeueLock.lock()
        defer { requeueLock.unlock() }
        let (letters, end) = try read()
        try enqueue(letters)
        try remove(readUpTo: end)
        return letters.count
    }

    /// Every dead letter, oldest first, with their journaled payloads.
    func list() throws(TrackingError) -> [(letter: DeadLetter, payload: [UInt8])] { try read().letters }

    /// Every dead letter, oldest first, with their journaled payloads (for re-queueing), and where the
    /// reading ended: letters added later lie after it (see ``remove(readUpTo:)``).
    func read() throws(TrackingError) -> (letters: [(letter: DeadLetter, payload: [UInt8])], end: ReadMark) {
        lock.lock()
        defer { lock.unlock() }
        let bytes = try contents()
        let (letters, unreadable) = Self.parse(bytes)
        self.unreadable = unreadable
        return (letters, ReadMark(size: bytes.count, removals: removals, unreadable: unreadable))
    }

    /// Forgets the dead letters a ``read()`` returned (the file's bytes up to its `end`), once they are
    /// re-queued. Letters added since (a tracker's sender dead-letters while a re-queue runs) are kept,
    /// and the bytes among the forgotten that held no readable letter are copied to `quarantine.log`
    /// first. When letters were forgotten since that reading (two re-queues at once, or a write cut short
    /// was cut off), or a write failed since (its failed `sync` may have dropped bytes the reading saw),
    /// nothing is done: the bytes up to `end` may no longer be those letters, which stay (duplicates at
    /// worst). A crash in between leaves a letter both pending and dead, never neither.
    func remove(readUpTo end: ReadMark) throws(TrackingError) {
        lock.lock()
        defer { lock.unlock() }
        guard end.removals == removals else { return }
        // With no removal since, the file only grew: its first `end.size` bytes are those `read()` parsed.
        let bytes = try contents()
        guard !bytes.isEmpty else { return }
        let forgotten = min(end.size, bytes.count)
        let entries = end.unreadable.filter { $0.offset + $0.count <= forgotten }.map { stretch in
            JournalQuarantine.Entry(file: Self.fileName, offset: stretch.offset, bytes: bytes[stretch.offset..<(stretch.offset + stretch.count)],
                                    reason: stretch.reason)
        }
        try JournalQuarantine.add(entries, to: storage)
        do throws(JournalStorageError) {
            if forgotten == bytes.count {
                try storage.truncate(Self.fileName, to: 0)
            } else {
                try storage.replace(Self.fileName, with: Array(bytes[forgotten...]), durable: durable)
            }
            removals += 1
        } catch {
            throw error.trackingError
        }
    }

    /// Cuts off what a crash or a power loss left of an earlier process's last add at the end of the file
    /// (a letter cut short, or zeros where blocks were never written), copied to `quarantine.log` first,
    /// and returns it as damage found (an interrupted write): those letters were never durable, so their
    /// events were kept pending. Letters added after it would otherwise follow damage. A tracker calls it
    /// as it opens its journal, before any letter is added.
    func cutOffAWriteCutShort() throws(TrackingError) -> JournalRecoveryReport.Damage? {
        lock.lock()
        defer { lock.unlock() }
        let bytes = try contents()
        let stretches = RecordFrame.scan(bytes, segment: 0, from: 0, format: .version1) { _, _ in }
        guard let last = stretches.last, RecordFrame.isCutShortAppend(last, in: bytes, segment: 0, format: .version1) else { return nil }
        let reason = JournalRecoveryReport.Damage.interruptedWrite
        try JournalQuarantine.add([.init(file: Self.fileName, offset: last.offset, bytes: bytes[last.offset...], reason: reason)], to: storage)
        do { try storage.truncate(Self.fileName, to: last.offset) } catch { throw error.trackingError }
        // A reading made before no longer describes the file's bytes: its removal must do nothing.
        removals += 1
        return .init(file: Self.fileName, offset: last.offset, bytesSkipped: last.count, reason: reason)
    }

    /// The file's bytes (none when it does not exist). Called with the lock held.
    private func contents() throws(TrackingError) -> [UInt8] {
        do throws(JournalStorageError) {
            guard let size = try storage.size(Self.fileName) else { return [] }
            return try storage.read(Self.fileName, offset: 0, count: size)
        } catch {
            throw error.trackingError
        }
    }

    /// A stretch of the file that holds no readable dead letter.
    struct Unreadable: Sendable, Equatable, CustomStringConvertible {
        var offset: Int
        var count: Int
        var reason: String
        var description: String { "\(count) unreadable bytes at offset \(offset) skipped (\(reason))" }
        /// Whether it is a letter write cut short at the end of the file (see ``cutOffAWriteCutShort()``).
        var isInterruptedWrite: Bool { reason == JournalRecoveryReport.Damage.interruptedWrite }
    }

    /// The letters in `bytes`, and the stretches that hold none (damage, or a record that is no letter).
    private static func parse(_ bytes: [UInt8]) -> (letters: [(letter: DeadLetter, payload: [UInt8])], unreadable: [Unreadable]) {
        var letters: [(DeadLetter, [UInt8])] = []
        var unreadable: [Unreadable] = []
        let stretches = RecordFrame.scan(bytes, segment: 0, from: 0, format: .version1) { offset, record in
            let body = Array(record)
            let length = body.count >= 4 ? Int(RecordFrame.readUInt32(body, 0)) : Int.max
            guard length <= body.count - 12, let event = try? EventCodec.decode(body[(12 + length)...]) else {
                let count = RecordFrame.legacyHeaderSize + body.count
                unreadable.append(Unreadable(offset: offset, count: count, reason: "the record holds no readable dead letter"))
                return
            }
            let reason = String(decoding: body[4..<(4 + length)], as: UTF8.self)
            let millis = RecordFrame.readUInt64(body, 4 + length)
            let payload = Array(body[(12 + length)...])
            let at = RecordWriter.date(milliseconds: Int64(bitPattern: millis))
            letters.append((DeadLetter(event: event, reason: reason, at: at), payload))
        }
        unreadable += stretches.map { stretch in
            // A last add cut short by a crash or power loss (never durable: its events stayed pending).
            let torn = stretch == stretches.last && RecordFrame.isCutShortAppend(stretch, in: bytes, segment: 0, format: .version1)
            return Unreadable(offset: stretch.offset, count: stretch.count, reason: torn ? JournalRecoveryReport.Damage.interruptedWrite : stretch.reason)
        }
        return (letters, unreadable.sorted { $0.offset < $1.offset })
    }
}
