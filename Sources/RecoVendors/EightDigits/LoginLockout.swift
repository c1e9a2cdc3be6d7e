/// 8digits' protection against password guessing, modelled on the client so that a login the server
/// would refuse is not even attempted:
///
/// - after ``ipFailureLimit`` (5) failed logins the IP address is blocked from authentication (the
///   guide gives no end to it: ``clearIPBlock()`` lifts it here once the operator knows it is lifted);
/// - after ``usernameFailureLimit`` (3) failed logins within ``usernameWindow`` (60 s) a username is
///   blocked for ``usernameBlock`` (10 minutes).
///
/// A successful login resets the failures counted for the address and for its username.
public struct LoginLockout<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// Failed logins that block the IP address: 5.
    public let ipFailureLimit = 5
    /// Failed logins within the window that block a username: 3.
    public let usernameFailureLimit = 3
    /// The window in which username failures count: 60 seconds.
    public let usernameWindow: Duration = .seconds(60)
    /// How long a username stays blocked: 10 minutes.
    public let usernameBlock: Duration = .seconds(600)

    private var ipFailures = 0
    private var usernameFailures: [String: [Instant]] = [:]
    private var usernameBlockedUntil: [String: Instant] = [:]

    /// No failures yet.
    public init() {}

    /// Throws when a login for `username` at `now` would be refused.
    /// - Throws: ``EightDigitsError`` `ipBlocked`, or `usernameBlocked` with the time left.
    public func check(username: String, at now: Instant) throws(EightDigitsError) {
        if ipFailures >= ipFailureLimit { throw .ipBlocked(failures: ipFailures) }
        if let until = usernameBlockedUntil[username], now < until {
            throw .usernameBlocked(username, retryAfter: now.duration(to: until))
        }
    }

    /// Counts a failed login.
    public mutating func recordFailure(username: String, at now: Instant) {
        ipFailures += 1
        if let until = usernameBlockedUntil[username], until <= now {
            usernameBlockedUntil[username] = nil
        }
        var recent = (usernameFailures[username] ?? []).filter { $0.duration(to: now) < usernameWindow }
        recent.append(now)
        if recent.count >= usernameFailureLimit {
            usernameBlockedUntil[username] = now.advanced(by: usernameBlock)
            recent = []
        }
        usernameFailures[username] = recent
    }

    /// Forgets the failures of the address and of this username.
    public mutating func recordSuccess(username: String) {
        ipFailures = 0
        usernameFailures[username] = nil
        usernameBlockedUntil[username] = nil
    }

    /// Lifts the IP block (8digits lifts it on its side; the guide says not when).
    public mutating func clearIPBlock() { ipFailures = 0 }

    /// Failed logins counted against the address.
    public var failuresFromThisAddress: Int { ipFailures }
}
