/// Why a Bloomreach request could not be made or answered: a bad request parameter, an HTTP failure,
/// an unreadable answer.
public struct BloomreachError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case invalidParameter(name: String, reason: String)
        case httpStatus(Int)
        case transport(String)
        case payload(PayloadError)
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// A request parameter is empty or malformed.
    public static func invalidParameter(_ name: String, _ reason: String) -> BloomreachError {
        BloomreachError(.invalidParameter(name: name, reason: reason))
    }

    /// Bloomreach answered with an HTTP status other than 2xx.
    public static func httpStatus(_ status: Int) -> BloomreachError { BloomreachError(.httpStatus(status)) }

    /// The request did not reach Bloomreach or no answer came back.
    public static func transport(_ reason: String) -> BloomreachError { BloomreachError(.transport(reason)) }

    /// The answer could not be read as a segments answer.
    public static func payload(_ error: PayloadError) -> BloomreachError { BloomreachError(.payload(error)) }

    /// What kind of failure this is: compare with the static members (`error.kind == .invalidParameter`).
    /// New kinds may be added; a `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// A request parameter is empty or malformed.
        public static let invalidParameter = Kind(name: "invalidParameter")
        /// Bloomreach answered with an HTTP status other than 2xx.
        public static let httpStatus = Kind(name: "httpStatus")
        /// The request did not reach Bloomreach or no answer came back.
        public static let transport = Kind(name: "transport")
        /// The answer could not be read as a segments answer.
        public static let payload = Kind(name: "payload")
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .invalidParameter: .invalidParameter
        case .httpStatus: .httpStatus
        case .transport: .transport
        case .payload: .payload
        }
    }

    /// The parameter at fault, for an invalid parameter.
    public var parameter: String? {
        if case .invalidParameter(let name, _) = base { name } else { nil }
    }

    /// The HTTP status, for an HTTP failure.
    public var status: Int? {
        if case .httpStatus(let status) = base { status } else { nil }
    }

    /// The answer's decoding error, for an unreadable answer.
    public var payloadError: PayloadError? {
        if case .payload(let error) = base { error } else { nil }
    }

    public var description: String {
        switch base {
        case .invalidParameter(let name, let reason): "invalid \(name): \(reason)"
        case .httpStatus(let status): "Bloomreach answered HTTP \(status)"
        case .transport(let reason): "Bloomreach could not be reached: \(reason)"
        case .payload(let error): "unreadable segments answer: \(error)"
        }
    }
}
