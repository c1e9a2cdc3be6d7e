import Foundation

/// An event the vendor refused (or that was too old to send), kept with the reason until re-queued.
public struct DeadLetter: Sendable, Hashable {
    /// The event, with its original id.
    public var event: TrackedEvent
    /// Why it was refused, in the vendor's words where it gave any.
    public var reason: String
    /// When it was dead-lettered.
    public var at: Date

    /// A dead letter.
    public init(event: TrackedEvent, reason: String, at: Date) {
        self.event = event
        self.reason = reason
        self.at = at
    }
}
