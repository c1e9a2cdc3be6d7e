/// A visit (a session) and its screens (hits), with the tracking model's rules:
///
/// - a hit code is unique within its session (it may repeat in other sessions);
/// - an event is bound to a hit of the session (a server-side event is bound to none);
/// - a screen is ended once; ending an unknown screen is an error;
/// - a hit arriving for an ended visit revives it (8digits' "reborn" routine).
public struct EightDigitsVisit: Hashable, Sendable {
    /// A screen of the visit.
    public struct Hit: Hashable, Sendable {
        /// The hit code.
        public let code: String
        /// The screen's title.
        public let title: String
        /// The screen's path.
        public let path: String
        /// Whether the screen was ended.
        public internal(set) var isEnded: Bool
    }

    /// The session code.
    public let sessionCode: String
    /// Whether the visit is ended (a new hit revives it).
    public private(set) var isEnded = false
    /// How many times a hit revived the ended visit.
    public private(set) var revivals = 0
    /// The screens, in the order they started.
    public private(set) var hits: [Hit] = []

    /// A visit with its session code.
    public init(sessionCode: String) { self.sessionCode = sessionCode }

    /// The screen with this hit code.
    public func hit(_ code: String) -> Hit? { hits.first { $0.code == code } }

    /// Refuses a hit code the session already has.
    public func checkNewHit(_ code: String) throws(EightDigitsError) {
        if hit(code) != nil { throw .duplicateHit(code) }
    }

    /// Records a started screen; a visit that was ended comes back to life.
    /// - Returns: Whether the hit revived the visit.
    /// - Throws: ``EightDigitsError`` (`duplicateHit`) when the code is already used in this session.
    @discardableResult
    public mutating func addHit(code: String, title: String, path: String) throws(EightDigitsError) -> Bool {
        try checkNewHit(code)
        hits.append(Hit(code: code, title: title, path: path, isEnded: false))
        guard isEnded else { return false }
        isEnded = false
        revivals += 1
        return true
    }

    /// Checks that a screen can be ended: it exists and is not ended yet.
    public func checkEndHit(_ code: String) throws(EightDigitsError) {
        guard let hit = hit(code) else { throw .unknownHit(code) }
        if hit.isEnded { throw .invalidArgument("hitCode", "screen \"\(code)\" is already ended") }
    }

    /// Records an ended screen.
    public mutating func endHit(_ code: String) throws(EightDigitsError) {
        try checkEndHit(code)
        if let index = hits.firstIndex(where: { $0.code == code }) { hits[index].isEnded = true }
    }

    /// Checks that an event can be bound to this hit.
    public func checkEvent(hitCode: String) throws(EightDigitsError) {
        if hit(hitCode) == nil { throw .unknownHit(hitCode) }
    }

    /// Records the end of the visit; its open screens stay as they are until their own end.
    public mutating func end() { isEnded = true }
}
