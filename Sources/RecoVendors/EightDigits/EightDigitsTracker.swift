import Foundation

/// Tracks a visitor with 8digits from a server: authenticate, start a visit, start and end screens,
/// send events, update the location, end the visit, read badges and score.
///
/// The tracking model's rules are checked before anything is sent (see ``EightDigitsVisit``), and so
/// are the login lockouts (see ``LoginLockout``): a login 8digits would refuse is not attempted and
/// fails with `ipBlocked` or `usernameBlocked`. A reply with a non-zero `result.code` fails with a
/// `server` error carrying the server's message.
///
/// ```swift
/// let api = try EightDigitsAPI(urlPrefix: URL(string: "https://acme.8digits.com/api")!, trackingCode: "AbCd1234")
/// let tracker = EightDigitsTracker(api: api, transport: HTTPEightDigitsTransport(), visitorCode: "a1b2c3d4")
/// try await tracker.authenticate(username: "acme", password: "s3cret")
/// let visit = try await tracker.startVisit(title: "Home", path: "/home")
/// let hit = try await tracker.startScreen(title: "Basket", path: "/basket")
/// try await tracker.event(key: "AddToShoppingCart", value: "120.99", hitCode: hit)
/// try await tracker.endVisit()
/// ```
public actor EightDigitsTracker<C: Clock> where C.Duration == Duration {
    /// The API calls are described by this.
    public let api: EightDigitsAPI
    /// The visitor's code (chosen by the caller: 8digits does not make one).
    public let visitorCode: String
    private let transport: any EightDigitsTransport
    private let clock: C
    private var lockout = LoginLockout<C.Instant>()

    /// The auth token, once authenticated.
    public private(set) var authToken: String?
    /// The current visit, once started.
    public private(set) var visit: EightDigitsVisit?

    /// A tracker for one visitor; the lockout rules run on `clock`.
    public init(api: EightDigitsAPI, transport: any EightDigitsTransport, visitorCode: String, clock: C) {
        self.api = api
        self.transport = transport
        self.visitorCode = visitorCode
        self.clock = clock
    }

    // MARK: Authentication

    /// Authenticates and keeps the token for the following calls.
    /// - Throws: ``EightDigitsError``: `ipBlocked` / `usernameBlocked` without sending anything when a
    ///   lockout applies; `server` when 8digits refuses (the failure is counted).
    @discardableResult
    public func authenticate(username: String, password: String) async throws(EightDigitsError) -> String {
        let request = try api.auth(username: username, password: password)
        try lockout.check(username: username, at: clock.now)
        let data = try await transport.send(request)
        if EightDigitsReply.serverFailure(data) != nil {
            lockout.recordFailure(username: username, at: clock.now)
        }
        let token = try Self.read(data, EightDigitsReply.authToken)
        lockout.recordSuccess(username: username)
        authToken = token
        return token
    }

    /// Lifts the client-side IP block once 8digits has lifted its own.
    public func clearIPBlock() { lockout.clearIPBlock() }

    // MARK: Visit and screens

    /// Starts a visit; `sessionCode` and `hitCode` are the caller's own codes, or the server makes them.
    /// - Returns: The session code and the launch screen's hit code.
    @discardableResult
    public func startVisit(title: String, path: String, sessionCode: String? = nil, hitCode: String? = nil) async throws(EightDigitsError) -> EightDigitsVisitStarted {
        let request = try api.createVisit(try visitor(), title: title, path: path, sessionCode: sessionCode, hitCode: hitCode)
        let started = try Self.read(try await transport.send(request), EightDigitsReply.visit)
        var newVisit = EightDigitsVisit(sessionCode: started.sessionCode)
        if let launch = started.hitCode ?? hitCode {
            try newVisit.addHit(code: launch, title: title, path: path)
        }
        visit = newVisit
        return EightDigitsVisitStarted(sessionCode: started.sessionCode, hitCode: started.hitCode ?? hitCode)
    }

    /// Starts a screen in the current visit (reviving it when it was ended).
    /// - Throws: ``EightDigitsError`` `duplicateHit` before sending when `hitCode` is already used in this session.
    /// - Returns: The screen's hit code.
    @discardableResult
    public func startScreen(title: String, path: String, hitCode: String? = nil) async throws(EightDigitsError) -> String {
        let current = try currentVisit()
        if let hitCode { try current.checkNewHit(hitCode) }
        let request = try api.createHit(try visitor(), sessionCode: current.sessionCode, title: title, path: path, hitCode: hitCode)
        let code = try Self.read(try await transport.send(request), EightDigitsReply.hitCode)
        try visit?.addHit(code: code, title: title, path: path)
        return code
    }

    /// Ends a screen of the current visit.
    public func endScreen(hitCode: String) async throws(EightDigitsError) {
        let current = try currentVisit()
        try current.checkEndHit(hitCode)
        try Self.read(try await transport.send(try api.endHit(try visitor(), sessionCode: current.sessionCode, hitCode: hitCode)),
                      EightDigitsReply.acknowledgement)
        try visit?.endHit(hitCode)
    }

    /// Ends the current visit. A later screen revives it.
    public func endVisit() async throws(EightDigitsError) {
        let current = try currentVisit()
        try Self.read(try await transport.send(try api.endVisit(try visitor(), sessionCode: current.sessionCode)), EightDigitsReply.acknowledgement)
        visit?.end()
    }

    // MARK: Events, location, badges, score

    /// Sends an event bound to a screen of the current visit.
    /// - Throws: ``EightDigitsError`` `invalidArgument` for an empty key, `unknownHit` for a hit code
    ///   this session does not have (both before sending).
    public func event(key: String, value: String? = nil, hitCode: String) async throws(EightDigitsError) {
        let current = try currentVisit()
        try current.checkEvent(hitCode: hitCode)
        let request = try api.event(try visitor(), key: key, value: value, sessionCode: current.sessionCode, hitCode: hitCode)
        try Self.read(try await transport.send(request), EightDigitsReply.acknowledgement)
    }

    /// Sends a server-side event, bound to no session or screen.
    public func serverEvent(key: String, value: String? = nil) async throws(EightDigitsError) {
        try Self.read(try await transport.send(try api.event(try visitor(), key: key, value: value)), EightDigitsReply.acknowledgement)
    }

    /// Updates the visitor's location in decimal degrees.
    public func updateLocation(latitude: Decimal, longitude: Decimal) async throws(EightDigitsError) {
        let current = try currentVisit()
        let request = try api.updateLocation(try visitor(), sessionCode: current.sessionCode, latitude: latitude, longitude: longitude)
        try Self.read(try await transport.send(request), EightDigitsReply.acknowledgement)
    }

    /// The badges the visitor carries.
    public func badges() async throws(EightDigitsError) -> EightDigitsBadges {
        try Self.read(try await transport.send(try api.badges(try visitor())), EightDigitsReply.badges)
    }

    /// The visitor's score.
    public func score() async throws(EightDigitsError) -> Int {
        try Self.read(try await transport.send(try api.score(try visitor())), EightDigitsReply.score)
    }

    // MARK: Helpers

    private func visitor() throws(EightDigitsError) -> EightDigitsAPI.Visitor {
        guard let authToken else { throw .notAuthenticated }
        return EightDigitsAPI.Visitor(authToken: authToken, visitorCode: visitorCode)
    }

    private func currentVisit() throws(EightDigitsError) -> EightDigitsVisit {
        guard authToken != nil else { throw .notAuthenticated }
        guard let visit else { throw .noVisit }
        return visit
    }

    /// Reads a reply: a non-zero code becomes a `server` error, an unreadable reply a `payload` error.
    @discardableResult
    private static func read<T>(_ data: Data, _ decode: (Data) throws(PayloadError) -> T) throws(EightDigitsError) -> T {
        if let failure = EightDigitsReply.serverFailure(data) { throw .server(code: failure.code, message: failure.message) }
        do {
            return try decode(data)
        } catch {
            throw .payload(error)
        }
    }
}

extension EightDigitsTracker where C == ContinuousClock {
    /// A tracker on the real clock.
    public init(api: EightDigitsAPI, transport: any EightDigitsTransport, visitorCode: String) {
        self.init(api: api, transport: transport, visitorCode: visitorCode, clock: ContinuousClock())
    }
}
