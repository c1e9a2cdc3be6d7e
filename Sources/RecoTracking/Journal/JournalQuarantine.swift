import Foundation
import RecoKit

/// `quarantine.log`: the bytes of every damaged stretch the journal met, kept before repair writes its
/// segment anew without it, so nothing is thrown away unseen. Each entry is a version-1 frame (length, CRC-32,
/// payload) whose payload is one line of JSON naming the file, offset, byte count, reason and time,
/// a newline, then the damaged bytes as they were.
enum JournalQuarantine {
    static let fileName = "quarantine.log"

    /// The entry for one stretch.
    static func entry(file: String, offset: Int, bytes: ArraySlice<UInt8>, reason: String, at date: Date) -> [UInt8] {
        let header = JSONWriter.string(.object([
            "file": .string(file), "offset": .number(JSONNumber(offset)), "bytes": .number(JSONNumber(bytes.count)),
            "reason": .string(reason), "at": .string(InteractionTime.iso8601(date)),
        ]))
        var payload = Array(header.utf8)
        payload.append(10)
        payload += bytes
        var framed = [UInt8]()
        RecordFrame.appendLegacy(payload, to: &framed)
        return framed
    }

    /// Appends entries and makes them durable; on a short or failed write the file is cut back, and the
    /// error thrown (the damaged bytes are then left where they are, for the next try).
    static func add(_ entries: [UInt8], to storage: any JournalStorage) throws(TrackingError) {
        guard !entries.isEmpty else { return }
        do throws(JournalStorageError) {
            let before = try storage.size(fileName) ?? 0
            let wrote: Int
            do { wrote = try storage.append(fileName, entries[...]) } catch {
                try? storage.truncate(fileName, to: before)
                throw error
            }
            guard wrote == entries.count else {
                try? storage.truncate(fileName, to: before)
                throw JournalStorageError(kind: .noSpace, description: "cannot write \(fileName): short write")
            }
            try storage.sync(fileName)
        } catch {
            throw error.trackingError
        }
    }
}
