/// A personalization vendor. Known vendors are static members; others can be named.
public struct Vendor: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The vendor's name in lower case, as used on the command line and in tracking attributes.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let segmentify: Vendor = "segmentify"
    public static let reteno: Vendor = "reteno"
    public static let bloomreach: Vendor = "bloomreach"
    public static let connectif: Vendor = "connectif"
    public static let eightDigits: Vendor = "8digits"

    public var description: String { rawValue }
}
