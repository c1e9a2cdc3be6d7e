import Foundation
import RecoKit

/// `quarantine.log`: the bytes of every damaged stretch the journal met, kept before repair writes its
/// segment anew without it, so nothing is thrown away unseen. Each entry is a version-1 frame (length, CRC-32,
/// payload) whose payload is one line of JSON naming the file, offset, byte count, reason and time,
/// a newline, then the damaged bytes as they were.
///
/// A stretch is kept once: damage met while reading is met again by the next start's recovery, and a
/// start that fails after quarantining (its disk failing as it writes the segment anew) is followed by
/// another; an entry whose bytes an earlier entry of the same file and place already holds is not
/// written again (a disk that keeps failing would otherwise fill with copies, one per start).
enum JournalQuarantine {
    static let fileName = "quarantine.log"

    /// One damaged stretch to keep.
    struct Entry {
        var file: String
        var offset: Int
        var bytes: ArraySlice<UInt8>
        var reason: String
    }

    /// The framed entry for one stretch.
    static func framed(_ entry: Entry, at date: Date) -> [UInt8] {
        let header = JSONWriter.string(.object([
            "file": .string(entry.file), "offset": .number(JSONNumber(entry.offset)), "bytes": .number(JSONNumber(entry.bytes.count)),
            "reason": .string(entry.reason), "at": .string(InteractionTime.iso8601(date)),
        ]))
        var payload = Array(header.utf8)
        payload.append(10)
        payload += entry.bytes
        var framed = [UInt8]()
        RecordFrame.appendLegacy(payload, to: &framed)
        return framed
    }

    /// Appends the entries not already kept and makes them durable; on a short or failed write the file
    /// is cut back, and the error thrown (the damaged bytes are then left where they are, for the next try).
    static func add(_ entries: [Entry], at date: Date = Date(), to storage: any JournalStorage) throws(TrackingError) {
        guard !entries.isEmpty else { return }
        do throws(JournalStorageError) {
            let before = try storage.size(fileName) ?? 0
            var kept = before > 0 ? try Kept(storage.read(fileName, offset: 0, count: before)) : Kept([])
            var framed = [UInt8]()
            for entry in entries where !kept.holds(entry) {
                framed += Self.framed(entry, at: date)
                kept.add(entry)
            }
            // The entries relied on may not be durable yet (written by a process that died before its
            // `sync`): made durable before the caller goes on to write the damage away.
            guard !framed.isEmpty else { return try storage.sync(fileName) }
            let wrote: Int
            do { wrote = try storage.append(fileName, framed[...]) } catch {
                try? storage.truncate(fileName, to: before)
                throw error
            }
            guard wrote == framed.count else {
                try? storage.truncate(fileName, to: before)
                throw JournalStorageError(kind: .noSpace, description: "cannot write \(fileName): short write")
            }
            try storage.sync(fileName)
        } catch {
            throw error.trackingError
        }
    }

    /// The stretches a quarantine already holds, by file.
    private struct Kept {
        private var byFile: [String: [(offset: Int, bytes: ArraySlice<UInt8>, reason: String)]] = [:]

        /// Reads the entries of `log` (unreadable ones, such as an entry a crash cut short, are passed over).
        init(_ log: [UInt8]) {
            _ = RecordFrame.scan(log, segment: 0, from: 0, format: .version1) { _, payload in
                guard let newline = payload.firstIndex(of: 10),
                      let header = try? JSONValue(parsing: Data(payload[..<newline])),
                      let file = header["file"]?.stringValue, let offset = header["offset"]?.intValue,
                      let count = header["bytes"]?.intValue, count == payload.endIndex - newline - 1
                else { return }
                byFile[file, default: []].append((offset, payload[(newline + 1)...], header["reason"]?.stringValue ?? ""))
            }
        }

        /// Whether an entry of the same file holds the same bytes at the same place (for a stretch of no
        /// bytes, a missing file, the same reason).
        func holds(_ entry: Entry) -> Bool {
            byFile[entry.file]?.contains { kept in
                guard entry.bytes.isEmpty else {
                    let start = entry.offset - kept.offset
                    return start >= 0 && start + entry.bytes.count <= kept.bytes.count
                        && kept.bytes.dropFirst(start).prefix(entry.bytes.count).elementsEqual(entry.bytes)
                }
                return kept.bytes.isEmpty && kept.offset == entry.offset && kept.reason == entry.reason
            } ?? false
        }

        mutating func add(_ entry: Entry) { byFile[entry.file, default: []].append((entry.offset, entry.bytes, entry.reason)) }
    }
}
