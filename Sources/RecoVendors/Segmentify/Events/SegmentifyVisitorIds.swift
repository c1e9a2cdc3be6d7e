/// The ids one visitor sends with every event.
public struct SegmentifyVisitorIds: Sendable, Hashable {
    /// The visitor's user id (kept across sessions).
    public var userId: String
    /// The current session's id.
    public var sessionId: String
    /// Whether ``sessionId`` was just issued (a new visitor or an expired session).
    public var isNewSession: Bool

    /// Ids.
    public init(userId: String, sessionId: String, isNewSession: Bool = false) {
        self.userId = userId
        self.sessionId = sessionId
        self.isNewSession = isNewSession
    }
}
