import Foundation
import RecoKit

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
    var unreadable: [Unreadable] { lock.withLock { lastUnreadable } }
    private var lastUnreadable: [Unreadable] = []
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

    /// How many bytes of the file are read at once (more only for one letter longer than that): opening a
    /// journal, re-queueing and listing its letters hold about this much of the file, not the whole file,
    /// which grows for as long as a vendor refuses events (about 190 bytes a letter).
    let window: Int

    init(storage: any JournalStorage, durable: Bool, window: Int = 2 << 20) {
        self.storage = storage
        self.durable = durable
        self.window = max(1, window)
    }

    /// Adds dead letters; written and (when durable) synced before returning.
    func add(_ letters: [(payload: ArraySlice<UInt8>, reason: String)], at date: Date) throws(TrackingError) {
        guard !letters.isEmpty else { return }
        var bytes = [UInt8]()
        let millis = RecordWriter.milliseconds(of: date)
        for letter in letters {
            var record = [UInt8]()
            // Every reason kept to a verdict's longest: a screen's or a destination's of any length would
            // be written once per event.
            let reason = Array(letter.reason.shortened(to: DeliveryVerdict.longestReason).utf8)
            RecordFrame.putUInt32(UInt32(reason.count), &record)
            record += reason
            RecordFrame.putUInt64(millis, &record)
            record += letter.payload
            RecordFrame.appendLegacy(record, to: &bytes)
        }
        lock.lock()
        defer { lock.unlock() }
        do throws(JournalStorageError) {
            // Written to the file now at its name when another process emptied, deleted or replaced it
            // (letters read before are then gone or elsewhere).
            if try storage.appendWhole(Self.fileName, bytes, durable: durable) { removals += 1 }
        } catch {
            // A failed `sync` may have dropped every byte written since the last good one, letters that a
            // reading saw among them: the file no longer only grew since any reading made before.
            removals += 1
            throw error.trackingError
        }
    }

    /// Moves every dead letter back: `enqueue` journals (and commits) them, a window of the file's letters
    /// at a time, then they are forgotten (see ``remove(readUpTo:)``); returns how many. One re-queue at a
    /// time: a second caller waits, then finds only letters written since (two at once both journaled every
    /// letter, and while the vendor still refused them the duplicates doubled with every round). When
    /// `enqueue` fails, the letters journaled before stay dead letters too (delivered twice at worst).
    func requeue(_ enqueue: ([(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) -> Void) throws(TrackingError) -> Int {
        requeueLock.lock()
        defer { requeueLock.unlock() }
        var count = 0
        let end = try read { (letters: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in
            try enqueue(letters)
            count += letters.count
        }
        try remove(readUpTo: end)
        return count
    }

    /// Every dead letter, oldest first, with their journaled payloads.
    func list() throws(TrackingError) -> [(letter: DeadLetter, payload: [UInt8])] {
        var letters: [(letter: DeadLetter, payload: [UInt8])] = []
        let (_, complete) = try readLetters { (piece: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in letters += piece }
        if complete { return letters }
        // Letters were forgotten while the file was read: it is read again as it is now, with the lock held
        // throughout this time (adds wait), so that this reading is whole.
        letters = []
        _ = try readLetters(holdingTheLock: true) { (piece: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in letters += piece }
        return letters
    }

    /// Every dead letter, oldest first, with their journaled payloads (for re-queueing), and where the
    /// reading ended: letters added later lie after it (see ``remove(readUpTo:)``).
    func read() throws(TrackingError) -> (letters: [(letter: DeadLetter, payload: [UInt8])], end: ReadMark) {
        var letters: [(letter: DeadLetter, payload: [UInt8])] = []
        let end = try read { (piece: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in letters += piece }
        return (letters, end)
    }

    /// Every dead letter the file holds now, oldest first, handed to `piece` a window of the file at a time,
    /// and where the reading ended. Letters added meanwhile lie after it; when letters are forgotten
    /// meanwhile, the reading stops there, and the mark it returns makes ``remove(readUpTo:)`` do nothing.
    func read(_ piece: ([(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) -> Void) throws(TrackingError) -> ReadMark {
        try readLetters(piece).end
    }

    /// See ``read(_:)``; `holdingTheLock`: the whole reading with the lock held (nothing is added or
    /// forgotten meanwhile, so it is whole; `piece` must then not call the store).
    private func readLetters(holdingTheLock: Bool = false, _ piece: ([(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) -> Void)
        throws(TrackingError) -> (end: ReadMark, complete: Bool) {
        if holdingTheLock { lock.lock() }
        defer { if holdingTheLock { lock.unlock() } }
        /// `body` with the lock held (already, or for its time).
        func locked<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
            if holdingTheLock { return try body() }
            lock.lock()
            defer { lock.unlock() }
            return try body()
        }
        let (size, removals) = try locked { () throws(TrackingError) in
            // Letters an operator deleted (or replaced) under a running tracker are not read again.
            if storage.refresh(Self.fileName) { self.removals += 1 }
            return (try fileSize(), self.removals)
        }
        var letters: [(letter: DeadLetter, payload: [UInt8])] = []
        var unreadable: [Unreadable] = []
        let (walk, damaged) = try walk(size: size, read: { (offset: Int, count: Int) throws(TrackingError) -> [UInt8]? in
            try locked { () throws(TrackingError) -> [UInt8]? in
                guard self.removals == removals else { return nil }
                return try readFile(offset: offset, count: count)
            }
        }, record: { (offset: Int, record: ArraySlice<UInt8>) in
            if let letter = Self.letter(record) {
                letters.append(letter)
            } else {
                let count = RecordFrame.legacyHeaderSize + record.count
                unreadable.append(Unreadable(offset: offset, count: count, reason: "the record holds no readable dead letter"))
            }
        }, windowEnd: { () throws(TrackingError) in
            guard !letters.isEmpty else { return }
            try piece(letters)
            letters.removeAll(keepingCapacity: true)
        })
        unreadable += damaged
        unreadable.sort { $0.offset < $1.offset }
        if walk.complete { locked { lastUnreadable = unreadable } }
        return (ReadMark(size: walk.end, removals: removals, unreadable: unreadable), walk.complete)
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
        if storage.refresh(Self.fileName) { removals += 1 }
        guard end.removals == removals else { return }
        // With no removal since, the file only grew: its first `end.size` bytes are those `read()` parsed.
        let size = try fileSize()
        guard size > 0 else { return }
        let forgotten = min(end.size, size)
        var entries: [JournalQuarantine.Entry] = []
        for stretch in end.unreadable where stretch.offset + stretch.count <= forgotten {
            let bytes = try readFile(offset: stretch.offset, count: stretch.count)
            entries.append(JournalQuarantine.Entry(file: Self.fileName, offset: stretch.offset, bytes: bytes[...], reason: stretch.reason))
        }
        try JournalQuarantine.add(entries, to: storage)
        // The letters added since the reading (only they are read: the file may have grown large).
        let kept = forgotten == size ? [] : try readFile(offset: forgotten, count: size - forgotten)
        do throws(JournalStorageError) {
            if kept.isEmpty {
                try storage.truncate(Self.fileName, to: 0)
            } else {
                try storage.replace(Self.fileName, with: kept, durable: durable)
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
        let (walk, unreadable) = try walk(size: try fileSize(), read: { (offset: Int, count: Int) throws(TrackingError) -> [UInt8]? in
            try readFile(offset: offset, count: count)
        }, record: { _, _ in }, windowEnd: {})
        guard let last = unreadable.last, last.isInterruptedWrite, let tail = walk.tail else { return nil }
        let reason = JournalRecoveryReport.Damage.interruptedWrite
        let bytes = tail.bytes[(last.offset - tail.base)...]
        try JournalQuarantine.add([.init(file: Self.fileName, offset: last.offset, bytes: bytes, reason: reason)], to: storage)
        do { try storage.truncate(Self.fileName, to: last.offset) } catch { throw error.trackingError }
        // A reading made before no longer describes the file's bytes: its removal must do nothing.
        removals += 1
        return .init(file: Self.fileName, offset: last.offset, bytesSkipped: last.count, reason: reason)
    }

    /// The file's size (0 when it does not exist).
    private func fileSize() throws(TrackingError) -> Int {
        do { return try storage.size(Self.fileName) ?? 0 } catch { throw error.trackingError }
    }

    /// `count` bytes of the file from `offset`.
    private func readFile(offset: Int, count: Int) throws(TrackingError) -> [UInt8] {
        do { return try storage.read(Self.fileName, offset: offset, count: count) } catch { throw error.trackingError }
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

    /// The file's first `size` bytes walked a window at a time (see ``FrameWalk``); the stretches that hold
    /// no record, as unreadable letters.
    private func walk(size: Int, read: (_ offset: Int, _ count: Int) throws(TrackingError) -> [UInt8]?,
                      record: (_ offset: Int, _ payload: ArraySlice<UInt8>) -> Void,
                      windowEnd: () throws(TrackingError) -> Void) throws(TrackingError) -> (walk: FrameWalk, unreadable: [Unreadable]) {
        let walk = try FrameWalk.walk(size: size, window: window, read: read, record: record, windowEnd: windowEnd)
        let unreadable = walk.stretches.map { stretch in
            // A last add cut short by a crash or power loss (never durable: its events stayed pending).
            Unreadable(offset: stretch.offset, count: stretch.count,
                       reason: walk.isCutShortAppend(stretch) ? JournalRecoveryReport.Damage.interruptedWrite : stretch.reason)
        }
        return (walk, unreadable)
    }

    /// The dead letter a record holds, or nil when it holds none.
    private static func letter(_ record: ArraySlice<UInt8>) -> (letter: DeadLetter, payload: [UInt8])? {
        let body = Array(record)
        let length = body.count >= 4 ? Int(RecordFrame.readUInt32(body, 0)) : Int.max
        guard length <= body.count - 12, let event = try? EventCodec.decode(body[(12 + length)...]) else { return nil }
        let reason = String(decoding: body[4..<(4 + length)], as: UTF8.self)
        let millis = RecordFrame.readUInt64(body, 4 + length)
        let at = RecordWriter.date(milliseconds: Int64(bitPattern: millis))
        return (DeadLetter(event: event, reason: reason, at: at), Array(body[(12 + length)...]))
    }
}
