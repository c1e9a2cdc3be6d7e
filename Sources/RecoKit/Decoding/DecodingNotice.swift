/// Something decoding passed over on purpose, reported so that nothing disappears in silence:
/// a response item of a type that is not a recommendation, a block that ended up empty, a selected
/// field that no product has.
public struct DecodingNotice: Hashable, Sendable, CustomStringConvertible {
    /// What kind of thing was passed over. Vendors may add kinds of their own.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        /// A response item that is not a recommendation block (Segmentify `sendBannerDetails`, …).
        public static let skippedItem = Kind("skippedItem")
        /// A recommendation block with no products after assembly: not shown.
        public static let emptyWidget = Kind("emptyWidget")
        /// A field listed in the ``FieldSelection`` that no product has.
        public static let fieldNotFound = Kind("fieldNotFound")
        /// Products left out by the caller's filters.
        public static let filteredOut = Kind("filteredOut")
        /// A product left out of a block because an earlier block of the reply already showed it.
        public static let duplicateEliminated = Kind("duplicateEliminated")
        /// A recommendation block that could not be read (a required id missing, a value of the wrong
        /// type, invalid JSON inside a string): skipped, while the reply's other blocks are kept. The
        /// notice's ``DecodingNotice/cause`` says what and where.
        public static let invalidBlock = Kind("invalidBlock")
        public var description: String { name }
    }

    public var kind: Kind
    /// Where in the payload.
    public var path: JSONPath
    /// What happened, in words: at most ``longestMessage`` characters (a message quotes what the vendor
    /// sent, an id or a name, and one reply can give thousands of notices).
    public var message: String
    /// The error behind the notice, when there is one (an ``Kind/invalidBlock``'s).
    public var cause: PayloadError?

    public init(_ kind: Kind, at path: JSONPath, _ message: String, cause: PayloadError? = nil) {
        self.kind = kind
        self.path = path
        self.message = message.shortened(to: Self.longestMessage)
        self.cause = cause
    }

    /// The most characters a notice's ``message`` keeps; the rest is cut and marked "…".
    public static let longestMessage = 1_000

    /// A notice about the whole reply says so in brackets, so that "at $" is not read as part of its sentence.
    public var description: String { path == .root ? "\(kind): \(message) (at $, the whole reply)" : "\(kind): \(message) at \(path)" }
}
