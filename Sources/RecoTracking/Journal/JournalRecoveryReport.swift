/// What opening a journal found: how many events were pending, and every torn or corrupt stretch that
/// was skipped (never silently).
public struct JournalRecoveryReport: Sendable, Hashable, CustomStringConvertible {
    /// A stretch of a segment file that could not be read back and was cut off.
    public struct Damage: Sendable, Hashable, CustomStringConvertible {
        /// The segment file.
        public var file: String
        /// Where the first unreadable byte is.
        public var offset: Int
        /// How many bytes were cut off from there to the end of the file.
        public var bytesSkipped: Int
        /// Torn (a record that runs past the end: an interrupted write) or corrupt (a checksum mismatch).
        public var reason: String

        public var description: String { "\(file): skipped \(bytesSkipped) bytes from offset \(offset) (\(reason))" }
    }

    /// Events in the journal waiting for delivery.
    public var pendingEvents: Int = 0
    /// Segment files found.
    public var segments: Int = 0
    /// Damage found and cut off.
    public var damage: [Damage] = []
    /// A note when the delivery checkpoint was unreadable (delivery restarts at the oldest segment: duplicates, never loss).
    public var checkpointNote: String?

    public var description: String {
        var lines = ["\(pendingEvents) pending events in \(segments) segments"]
        if let checkpointNote { lines.append(checkpointNote) }
        lines += damage.map(\.description)
        return lines.joined(separator: "\n")
    }
}
