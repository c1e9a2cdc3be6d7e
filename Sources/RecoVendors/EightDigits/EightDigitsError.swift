/// Why an 8digits call failed: the server's own error, a login lockout, a rule of the tracking model,
/// or a transport or payload failure. Its description says which, in words.
public struct EightDigitsError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case server(code: Int, message: String)
        case ipBlocked(failures: Int)
        case usernameBlocked(username: String, retryAfter: Duration)
        case notAuthenticated
        case noVisit
        case invalidArgument(name: String, reason: String)
        case duplicateHit(String)
        case unknownHit(String)
        case transport(String)
        case payload(PayloadError)
    }

    /// What kind of failure this is; compare with the static members (`error.kind == .usernameBlocked`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// The server answered a non-zero `result.code`.
        public static let server = Kind(name: "server")
        /// Too many failed logins from this address: 8digits blocks the IP.
        public static let ipBlocked = Kind(name: "ipBlocked")
        /// Too many failed logins for this username in a minute: blocked for 10 minutes.
        public static let usernameBlocked = Kind(name: "usernameBlocked")
        /// The call needs an auth token: authenticate first.
        public static let notAuthenticated = Kind(name: "notAuthenticated")
        /// The call needs a visit: start one first.
        public static let noVisit = Kind(name: "noVisit")
        /// An argument breaks a rule (an empty event key, a latitude out of range).
        public static let invalidArgument = Kind(name: "invalidArgument")
        /// A hit code already used in this session.
        public static let duplicateHit = Kind(name: "duplicateHit")
        /// A hit code this session does not have.
        public static let unknownHit = Kind(name: "unknownHit")
        /// The request did not reach 8digits or no answer came back.
        public static let transport = Kind(name: "transport")
        /// The answer could not be read.
        public static let payload = Kind(name: "payload")
        public var description: String { name }
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// The server answered `{"result":{"code":code,"message":message}}`.
    public static func server(code: Int, message: String) -> EightDigitsError { EightDigitsError(.server(code: code, message: message)) }
    /// Logins from this address are blocked after `failures` failed attempts.
    public static func ipBlocked(failures: Int) -> EightDigitsError { EightDigitsError(.ipBlocked(failures: failures)) }
    /// Logins for `username` are blocked for `retryAfter` more.
    public static func usernameBlocked(_ username: String, retryAfter: Duration) -> EightDigitsError {
        EightDigitsError(.usernameBlocked(username: username, retryAfter: retryAfter))
    }
    /// No auth token yet.
    public static let notAuthenticated = EightDigitsError(.notAuthenticated)
    /// No visit yet.
    public static let noVisit = EightDigitsError(.noVisit)
    /// An argument breaks a rule.
    public static func invalidArgument(_ name: String, _ reason: String) -> EightDigitsError {
        EightDigitsError(.invalidArgument(name: name, reason: reason))
    }
    /// The hit code is already used in this session.
    public static func duplicateHit(_ code: String) -> EightDigitsError { EightDigitsError(.duplicateHit(code)) }
    /// The session has no hit with this code.
    public static func unknownHit(_ code: String) -> EightDigitsError { EightDigitsError(.unknownHit(code)) }
    /// The request did not reach 8digits.
    public static func transport(_ reason: String) -> EightDigitsError { EightDigitsError(.transport(reason)) }
    /// The answer could not be read.
    public static func payload(_ error: PayloadError) -> EightDigitsError { EightDigitsError(.payload(error)) }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .server: .server
        case .ipBlocked: .ipBlocked
        case .usernameBlocked: .usernameBlocked
        case .notAuthenticated: .notAuthenticated
        case .noVisit: .noVisit
        case .invalidArgument: .invalidArgument
        case .duplicateHit: .duplicateHit
        case .unknownHit: .unknownHit
        case .transport: .transport
        case .payload: .payload
        }
    }

    /// The server's `result.code`, for a server error.
    public var serverCode: Int? { if case .server(let code, _) = base { code } else { nil } }
    /// The server's `result.message`, for a server error.
    public var serverMessage: String? { if case .server(_, let message) = base { message } else { nil } }
    /// How long until a blocked username may try again.
    public var retryAfter: Duration? { if case .usernameBlocked(_, let wait) = base { wait } else { nil } }
    /// The reading error, for an unreadable answer.
    public var payloadError: PayloadError? { if case .payload(let error) = base { error } else { nil } }
    /// The argument at fault, for an invalid argument.
    public var argument: String? { if case .invalidArgument(let name, _) = base { name } else { nil } }

    public var description: String {
        switch base {
        case .server(let code, let message):
            "8digits answered error \(code): \(message)"
        case .ipBlocked(let failures):
            "login refused: 8digits blocks this IP address after \(failures) failed logins; no login is attempted"
        case .usernameBlocked(let username, let wait):
            "login refused: username \"\(username)\" is blocked for \(Self.text(wait)) more after 3 failed logins within 60 seconds"
        case .notAuthenticated:
            "not authenticated: call authenticate(username:password:) first"
        case .noVisit:
            "no visit: call startVisit first"
        case .invalidArgument(let name, let reason):
            "invalid \(name): \(reason)"
        case .duplicateHit(let code):
            "hit code \"\(code)\" is already used in this session (hit codes are unique within a session)"
        case .unknownHit(let code):
            "hit code \"\(code)\" is not a hit of this session"
        case .transport(let reason):
            "8digits could not be reached: \(reason)"
        case .payload(let error):
            "unreadable 8digits answer: \(error)"
        }
    }

    private static func text(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds) + (duration.components.attoseconds > 0 ? 1 : 0)
        return seconds >= 60 ? "\(seconds / 60) min \(seconds % 60) s" : "\(seconds) s"
    }
}
