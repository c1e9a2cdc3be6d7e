/// The stable id the tracker gives an event when it accepts it: the same on every retry, so a
/// receiver can recognise duplicates of at-least-once delivery.
///
/// Written as 16 hex digits naming the tracker's run, a dash, and the event's sequence number in that
/// run: `3f9a1c2b7d4e5f60-42`.
public struct EventID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Random per tracker run.
    public let run: UInt64
    /// 1, 2, 3… within the run.
    public let sequence: UInt64

    /// An id from its two parts.
    public init(run: UInt64, sequence: UInt64) {
        self.run = run
        self.sequence = sequence
    }

    /// Parses `3f9a1c2b7d4e5f60-42`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let run = UInt64(parts[0], radix: 16), let sequence = UInt64(parts[1]) else { return nil }
        self.init(run: run, sequence: sequence)
    }

    public var description: String {
        let hex = String(run, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "-" + String(sequence)
    }

    public static func < (lhs: EventID, rhs: EventID) -> Bool { (lhs.run, lhs.sequence) < (rhs.run, rhs.sequence) }
}
