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
    /// One add at a time (for every journal in the process: damage is rare), so that an add's reading of
    /// the log and its cut back on failure see only its own writes.
    private static let lock = NSLock()

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
    ///
    /// The log grows with every stretch of damage met, and is read a `window` at a time to find the entries
    /// it holds already: adding to it needs memory for a window and the new entries, not for the log.
    static func add(_ entries: [Entry], at date: Date = Date(), to storage: any JournalStorage, window: Int = 2 << 20) throws(TrackingError) {
        guard !entries.isEmpty else { return }
        // A reader of segments and a removal of dead letters can both meet damage at once.
        lock.lock()
        defer { lock.unlock() }
        // The log at its name is read, not one another process replaced since (whose entries it may not hold).
        _ = storage.refresh(fileName)
        do throws(JournalStorageError) {
            let before = try storage.size(fileName) ?? 0
            // Each entry the log holds (unreadable ones, such as an entry a crash cut short, are passed over)
            // is checked against the new ones as it is read.
            var held = [Bool](repeating: false, count: entries.count)
            _ = try FrameWalk.walk(size: before, window: window, read: { (offset: Int, count: Int) throws(JournalStorageError) -> [UInt8]? in
                try storage.read(fileName, offset: offset, count: count)
            }, record: { _, payload in
                guard let kept = Kept(payload) else { return }
                for index in entries.indices where !held[index] && kept.holds(entries[index]) { held[index] = true }
            })
            var framed = [UInt8]()
            var added: [Kept] = []
            for (index, entry) in entries.enumerated() where !held[index] && !added.contains(where: { $0.holds(entry) }) {
                framed += Self.framed(entry, at: date)
                added.append(Kept(file: entry.file, offset: entry.offset, bytes: entry.bytes, reason: entry.reason))
            }
            // The entries relied on may not be durable yet (written by a process that died before its
            // `sync`): made durable before the caller goes on to write the damage away.
            guard !framed.isEmpty else { return try storage.sync(fileName) }
            try storage.appendWhole(fileName, framed, durable: true)
        } catch {
            throw error.trackingError
        }
    }

    /// One entry the log holds: the stretch it keeps.
    fileprivate struct Kept {
        var file: String
        var offset: Int
        var bytes: ArraySlice<UInt8>
        var reason: String

        /// Whether it holds `entry`'s bytes at the same place of the same file (for a stretch of no bytes, a
        /// missing file, the same reason).
        func holds(_ entry: Entry) -> Bool {
            guard entry.file == file else { return false }
            guard entry.bytes.isEmpty else {
                let start = entry.offset - offset
                return start >= 0 && start + entry.bytes.count <= bytes.count
                    && bytes.dropFirst(start).prefix(entry.bytes.count).elementsEqual(entry.bytes)
            }
            return bytes.isEmpty && offset == entry.offset && reason == entry.reason
        }
    }
}

extension JournalQuarantine.Kept {
    /// The entry a frame's payload holds, or nil when it holds none.
    init?(_ payload: ArraySlice<UInt8>) {
        guard let newline = payload.firstIndex(of: 10),
              let header = try? JSONValue(parsing: Data(payload[..<newline])),
              let file = header["file"]?.stringValue, let offset = header["offset"]?.intValue,
              let count = header["bytes"]?.intValue, count == payload.endIndex - newline - 1
        else { return nil }
        self.init(file: file, offset: offset, bytes: payload[(newline + 1)...], reason: header["reason"]?.stringValue ?? "")
    }
}
