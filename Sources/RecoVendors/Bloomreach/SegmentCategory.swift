/// A category of real-time segments: `content`, `discovery` or `merchandising`.
///
/// Bloomreach may add categories; a name this toolkit does not know is kept as it is, never refused:
/// `SegmentCategory("recommendations")`.
public struct SegmentCategory: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The category's name as it appears in the answer.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A category by name.
    public init(_ name: String) { self.rawValue = name }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Segments used to personalize content.
    public static let content: SegmentCategory = "content"
    /// Segments used by Bloomreach Discovery (search, category and pathway results).
    public static let discovery: SegmentCategory = "discovery"
    /// Segments used for merchandising.
    public static let merchandising: SegmentCategory = "merchandising"

    /// The three categories Bloomreach documents.
    public static let documented: [SegmentCategory] = [.content, .discovery, .merchandising]

    /// Whether this is one of the three documented categories.
    public var isDocumented: Bool { Self.documented.contains(self) }

    public static func < (lhs: SegmentCategory, rhs: SegmentCategory) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}
