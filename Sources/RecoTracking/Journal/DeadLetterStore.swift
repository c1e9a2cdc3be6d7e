import Foundation

/// Dead letters in the journal's storage (`dead-letters.log`, each record a version-1 frame): the
/// reason's length (4 bytes), the reason, the time in epoch milliseconds (8 bytes) and the journaled
/// event. A failed or short write is cut back to the last whole record and thrown: the caller then keeps
/// the events pending instead of forgetting them.
final class DeadLetterStore: @unchecked Sendable {
    static let fileName = "dead-letters.log"
    private let lock = NSLock()
    private let storage: any JournalStorage
    private let durable: Bool
    private(set) var damage: [String] = []

    init(storage: any JournalStorage, durable: Bool) {
        self.storage = storage
        self.durable = durable
    }

    /// Adds dead letters; written and (when durable) synced before returning.
    func add(_ letters: [(payload: ArraySlice<UInt8>, reason: String)], at date: Date) throws(TrackingError) {
        guard !letters.isEmpty else { return }
        var bytes = [UInt8]()
        let millis = UInt64(bitPattern: Int64(date.timeIntervalSince1970 * 1000))
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
            throw error.trackingError
        }
    }

    /// Every dead letter, oldest first, with their journaled payloads (for re-queueing).
    func list() throws(TrackingError) -> [(letter: DeadLetter, payload: [UInt8])] {
        lock.lock()
        defer { lock.unlock() }
        let bytes: [UInt8]
        do throws(JournalStorageError) {
            guard let size = try storage.size(Self.fileName) else { damage = []; return [] }
            bytes = try storage.read(Self.fileName, offset: 0, count: size)
        } catch {
            throw error.trackingError
        }
        var letters: [(DeadLetter, [UInt8])] = []
        var unreadable: [String] = []
        let stretches = RecordFrame.scan(bytes, segment: 0, from: 0, format: .version1) { offset, record in
            let body = Array(record)
            let length = body.count >= 4 ? Int(RecordFrame.readUInt32(body, 0)) : Int.max
            guard length <= body.count - 12, let event = try? EventCodec.decode(body[(12 + length)...]) else {
                unreadable.append("\(Self.fileName): the record at offset \(offset) holds no readable dead letter")
                return
            }
            let reason = String(decoding: body[4..<(4 + length)], as: UTF8.self)
            let millis = RecordFrame.readUInt64(body, 4 + length)
            let payload = Array(body[(12 + length)...])
            let at = Date(timeIntervalSince1970: Double(Int64(bitPattern: millis)) / 1000)
            letters.append((DeadLetter(event: event, reason: reason, at: at), payload))
        }
        damage = unreadable + stretches.map { "\(Self.fileName): \($0.count) unreadable bytes at offset \($0.offset) skipped (\($0.reason))" }
        return letters
    }

    /// Forgets every dead letter (after they were re-queued).
    func removeAll() throws(TrackingError) {
        lock.lock()
        defer { lock.unlock() }
        do {
            guard try storage.size(Self.fileName) != nil else { return }
            try storage.truncate(Self.fileName, to: 0)
        } catch {
            throw error.trackingError
        }
    }
}
