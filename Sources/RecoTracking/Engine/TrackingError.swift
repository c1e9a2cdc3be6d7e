/// Why the tracker refused an event or could not use its journal.
///
/// ```swift
/// do { try tracker.track(click) }
/// catch let error as TrackingError where error == .queueFull { /* back off; the refusal is counted */ }
/// ```
public struct TrackingError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case queueFull
        case shutDown
        case invalid(InteractionError)
        case journal
        case journalInUse
        case configuration
    }

    private let base: Base
    /// What went wrong, in words.
    public let message: String

    private init(_ base: Base, _ message: String) {
        self.base = base
        self.message = message
    }

    /// The journal reached its size limit; the event was not accepted (counted in ``TrackingStatistics/refusedQueueFull``).
    public static let queueFull = TrackingError(.queueFull, "the journal is full; the event was not accepted")
    /// The tracker is shutting down or shut down; the event was not accepted.
    public static let shutDown = TrackingError(.shutDown, "the tracker is shut down; the event was not accepted")
    /// The interaction is not valid for the destination.
    public static func invalid(_ reason: InteractionError) -> TrackingError { TrackingError(.invalid(reason), "invalid interaction: \(reason)") }
    /// The journal's files could not be read or written.
    public static func journal(_ message: String) -> TrackingError { TrackingError(.journal, message) }
    /// Another process holds the journal directory.
    public static func journalInUse(_ path: String) -> TrackingError {
        TrackingError(.journalInUse, "the journal \(path) is in use by another process")
    }
    /// The tracker's configuration cannot work.
    public static func configuration(_ message: String) -> TrackingError { TrackingError(.configuration, message) }

    /// What kind of failure this is: compare with the static members (`error.kind == .queueFull`).
    /// New kinds may be added; a `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// The journal reached its size limit; the event was not accepted.
        public static let queueFull = Kind(name: "queueFull")
        /// The tracker is shut down; the event was not accepted.
        public static let shutDown = Kind(name: "shutDown")
        /// The interaction is not valid for the destination (``interactionError`` says why).
        public static let invalid = Kind(name: "invalid")
        /// The journal's files could not be read or written.
        public static let journal = Kind(name: "journal")
        /// Another process holds the journal directory.
        public static let journalInUse = Kind(name: "journalInUse")
        /// The tracker's configuration cannot work.
        public static let configuration = Kind(name: "configuration")
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .queueFull: .queueFull
        case .shutDown: .shutDown
        case .invalid: .invalid
        case .journal: .journal
        case .journalInUse: .journalInUse
        case .configuration: .configuration
        }
    }

    /// For an invalid interaction, the reason.
    public var interactionError: InteractionError? {
        if case .invalid(let reason) = base { reason } else { nil }
    }

    /// Whether the journal was full.
    public var isQueueFull: Bool { base == .queueFull }

    public static func == (lhs: TrackingError, rhs: TrackingError) -> Bool { lhs.base == rhs.base }
    public func hash(into hasher: inout Hasher) { hasher.combine(base) }
    public var description: String { message }
}
