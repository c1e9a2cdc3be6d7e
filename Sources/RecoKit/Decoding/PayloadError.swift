/// A payload that cannot be read as a whole: invalid JSON, a value of the wrong type where the vendor's
/// format requires another, a required key missing, or a vendor's error reply.
///
/// Its description is one line that says what and where:
/// `invalid JSON: unexpected end of input, expected ',' or '}' at $.responses[0][0] (line 3, column 14)`.
public struct PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case invalidJSON(line: Int, column: Int)
        case limitExceeded(line: Int?, column: Int?)
        case typeMismatch
        case missingKey
        case invalidValue
        case unrecognized
        case vendorError(code: String)
        case unreadable
    }

    /// What kind of failure this is; compare with the static members (`error.kind == .missingKey`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// The bytes are not valid JSON.
        public static let invalidJSON = Kind(name: "invalidJSON")
        /// The payload is larger or deeper than a limit allows (see ``JSONLimits``).
        public static let limitExceeded = Kind(name: "limitExceeded")
        /// A value has the wrong JSON type.
        public static let typeMismatch = Kind(name: "typeMismatch")
        /// A required key is absent.
        public static let missingKey = Kind(name: "missingKey")
        /// A value has the right type but a wrong content.
        public static let invalidValue = Kind(name: "invalidValue")
        /// The payload matches no known vendor format.
        public static let unrecognized = Kind(name: "unrecognized")
        /// The vendor answered with an error (its code is in ``PayloadError/vendorCode``).
        public static let vendorError = Kind(name: "vendorError")
        /// The payload could not be read from its file.
        public static let unreadable = Kind(name: "unreadable")
        public var description: String { name }
    }

    private let base: Base
    /// What went wrong, in words: at most ``longestMessage`` characters (a message quotes what the
    /// payload holds, which may be megabytes).
    public let message: String
    /// Where in the document it went wrong.
    public let path: JSONPath
    /// The file the payload came from, when known.
    public private(set) var file: String?

    /// The most characters of a ``message`` kept; a longer one is cut there, with "…".
    public static let longestMessage = 1_000

    private init(_ base: Base, _ message: String, path: JSONPath, file: String? = nil) {
        self.base = base
        self.message = message.shortened(to: Self.longestMessage)
        self.path = path
        self.file = file
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .invalidJSON: .invalidJSON
        case .limitExceeded: .limitExceeded
        case .typeMismatch: .typeMismatch
        case .missingKey: .missingKey
        case .invalidValue: .invalidValue
        case .unrecognized: .unrecognized
        case .vendorError: .vendorError
        case .unreadable: .unreadable
        }
    }

    /// For invalid JSON, the 1-based line and column of the offending byte; for a limit the parser
    /// reached, where it was reached.
    public var position: (line: Int, column: Int)? {
        switch base {
        case .invalidJSON(let line, let column): (line, column)
        case .limitExceeded(let line?, let column?): (line, column)
        default: nil
        }
    }

    /// For a vendor error reply, the vendor's code (for example Segmentify's `NO_ACCOUNT`).
    public var vendorCode: String? {
        if case .vendorError(let code) = base { code } else { nil }
    }

    /// The bytes are not valid JSON.
    public static func invalidJSON(_ message: String, at path: JSONPath, line: Int, column: Int) -> PayloadError {
        PayloadError(.invalidJSON(line: line, column: column), message, path: path)
    }

    /// The payload is larger or deeper than a limit allows; `message` names the limit (for example
    /// `nesting deeper than 512 levels (JSONLimits.maximumDepth)`). Line and column when a parser knows them.
    public static func limitExceeded(_ message: String, at path: JSONPath, line: Int? = nil, column: Int? = nil) -> PayloadError {
        PayloadError(.limitExceeded(line: line, column: column), message, path: path)
    }

    /// A value has the wrong JSON type.
    public static func typeMismatch(expected: String, found: JSONValue?, at path: JSONPath) -> PayloadError {
        let got = found.map(\.kindDescription) ?? "nothing"
        return PayloadError(.typeMismatch, "expected \(expected), found \(got)", path: path)
    }

    /// A required key is absent.
    public static func missingKey(_ key: String, at path: JSONPath) -> PayloadError {
        PayloadError(.missingKey, "missing required key \"\(key)\"", path: path)
    }

    /// A value has the right type but a wrong content.
    public static func invalidValue(_ message: String, at path: JSONPath) -> PayloadError {
        PayloadError(.invalidValue, message, path: path)
    }

    /// The payload matches no known vendor format.
    public static func unrecognized(_ message: String, at path: JSONPath = .root) -> PayloadError {
        PayloadError(.unrecognized, message, path: path)
    }

    /// The vendor answered with an error code; the code is kept to 64 characters and its meaning to 300
    /// (both may come from the reply, of any length).
    public static func vendorError(code: String, meaning: String, at path: JSONPath) -> PayloadError {
        let code = code.shortened(to: String.quotedCodeLength)
        return PayloadError(.vendorError(code: code), "the vendor answered \(code): \(meaning.shortened(to: String.quotedWordsLength))", path: path)
    }

    /// The payload's file could not be read.
    public static func unreadable(file: String, reason: String) -> PayloadError {
        PayloadError(.unreadable, "cannot read the payload: \(reason)", path: .root, file: file)
    }

    /// The same error, naming the file the payload came from.
    public func inFile(_ file: String) -> PayloadError {
        var copy = self
        copy.file = file
        return copy
    }

    /// The same error with its path placed below `prefix` (for a document embedded in another).
    public func nested(under prefix: JSONPath) -> PayloadError {
        PayloadError(base, message, path: prefix.appending(path), file: file)
    }

    public var description: String {
        var text = ""
        if case .invalidJSON = base { text += "invalid JSON: " }
        if case .limitExceeded = base { text += "JSON limit exceeded: " }
        text += message
        if case .unreadable = base {
            return (file.map { "\($0): " } ?? "") + text
        }
        text += " at \(path)"
        if let file { text = "\(file): " + text }
        if let position { text += " (line \(position.line), column \(position.column))" }
        return text
    }
}
