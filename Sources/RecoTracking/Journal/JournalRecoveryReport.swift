/// What opening a journal found: how many events were pending, and every torn or corrupt stretch that
/// was skipped (never silently).
public struct JournalRecoveryReport: Sendable, Hashable, CustomStringConvertible {
    /// A stretch of a segment file that could not be read back. When the journal was opened by a tracker
    /// (or repaired), its bytes were copied to `quarantine.log` in the journal's directory before the
    /// segment was written anew without them; a read-only inspection only reports it.
    public struct Damage: Sendable, Hashable, CustomStringConvertible {
        /// The segment file.
        public var file: String
        /// Where the first unreadable byte is.
        public var offset: Int
        /// How many bytes from there hold no readable record; 0 when the whole file is missing (a segment
        /// between two that exist, deleted or lost: its events are lost with it).
        public var bytesSkipped: Int
        /// Torn (a record that runs past the end: an interrupted write) or corrupt (a checksum mismatch…).
        public var reason: String
        /// How many accepted events the damage cost, where the journal can tell (it counts the records it
        /// wrote to each segment, and the records a segment held when it was last opened, each with its
        /// events: a page's record holds one per impression).
        public var lostEvents: Int?

        /// A damage entry.
        public init(file: String, offset: Int, bytesSkipped: Int, reason: String, lostEvents: Int? = nil) {
            self.file = file
            self.offset = offset
            self.bytesSkipped = bytesSkipped
            self.reason = reason
            self.lostEvents = lostEvents
        }

        static let interruptedWrite = "torn record (an interrupted write)"

        /// Whether it is a torn tail: a record cut short at the end of a segment, as a write interrupted by
        /// a crash or a power loss leaves it, or the zeros of blocks a power loss left unwritten after it
        /// (or after the last durable record). Such a record was never durable, so it held nothing a durable
        /// promise covered (`strict` mode's `track`, a relay's acknowledgement); other damage may have.
        public var isInterruptedWrite: Bool { reason == Self.interruptedWrite }

        /// The bytes it covers in ``file``.
        public var byteRange: Range<Int> { offset..<(offset + bytesSkipped) }

        public var description: String {
            var text = bytesSkipped == 0 ? "\(file): \(reason)" : "\(file): \(bytesSkipped) bytes from offset \(offset) unreadable (\(reason))"
            if let lostEvents { text += "; \(lostEvents) events lost" }
            return text
        }
    }

    /// Events in the journal waiting for delivery: a page's record (`Tracker.track(_: PageImpressions)`)
    /// counts its impressions.
    public var pendingEvents: Int = 0
    /// Segment files found.
    public var segments: Int = 0
    /// Damage found.
    public var damage: [Damage] = []
    /// A note when the delivery checkpoint was unreadable or named a place the journal does not hold
    /// (delivery restarts at the oldest segment: duplicates, never loss).
    public var checkpointNote: String?
    /// A disk error recovery got past, in the system's words: the checkpoint could not be read, so
    /// delivery restarts at the oldest segment. A disk that fails reads is failing: `recokit relay` exits
    /// 1 for it.
    public var diskError: String?
    /// Batches a process was delivering when it stopped (killed, crashed, or its machine lost): each goes
    /// out again, and its claim counts the attempt (``ClaimedBatch/attempts``).
    public var interruptedDeliveries = 0
    /// The most attempts one of those batches has had.
    public var mostInterruptions = 0

    /// A report.
    public init(pendingEvents: Int = 0, segments: Int = 0, damage: [Damage] = [], checkpointNote: String? = nil) {
        self.pendingEvents = pendingEvents
        self.segments = segments
        self.damage = damage
        self.checkpointNote = checkpointNote
    }

    public var description: String {
        var lines = ["\(pendingEvents) pending events in \(segments) segments"]
        if let checkpointNote { lines.append(checkpointNote) }
        if interruptedDeliveries > 0 {
            lines.append("the last process stopped while delivering \(interruptedDeliveries) \(interruptedDeliveries == 1 ? "batch" : "batches"), "
                         + "sent again now (the most attempts of one: \(mostInterruptions))")
        }
        lines += damage.map(\.description)
        return lines.joined(separator: "\n")
    }
}
