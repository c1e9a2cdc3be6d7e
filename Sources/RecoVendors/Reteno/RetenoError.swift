/// A Reteno request that cannot be built: a malformed recommendation variant id or base URL.
///
/// Its description is one line naming the bad value and what was expected:
/// `invalid Reteno variant id "r12x": expected r{recomId}v{variantId} with positive whole numbers, like r1107v1482`.
public struct RetenoError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case invalidVariantId(String)
        case invalidBaseURL(String)
    }

    private let base: Base

    private init(_ base: Base) { self.base = base }

    /// A recommendation variant id that is not `r{recomId}v{variantId}`.
    public static func invalidVariantId(_ value: String) -> RetenoError { RetenoError(.invalidVariantId(value)) }

    /// A base URL that is not an absolute http or https URL.
    public static func invalidBaseURL(_ value: String) -> RetenoError { RetenoError(.invalidBaseURL(value)) }

    /// What kind of failure this is: compare with the static members (`error.kind == .invalidVariantId`).
    /// New kinds may be added; a `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// A recommendation variant id that is not `r{recomId}v{variantId}`.
        public static let invalidVariantId = Kind(name: "invalidVariantId")
        /// A base URL that is not an absolute http or https URL.
        public static let invalidBaseURL = Kind(name: "invalidBaseURL")
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .invalidVariantId: .invalidVariantId
        case .invalidBaseURL: .invalidBaseURL
        }
    }

    /// The value that was rejected.
    public var value: String {
        switch base {
        case .invalidVariantId(let value), .invalidBaseURL(let value): value
        }
    }

    public var description: String {
        switch base {
        case .invalidVariantId(let value):
            "invalid Reteno variant id \"\(value)\": expected r{recomId}v{variantId} with positive whole numbers, like r1107v1482"
        case .invalidBaseURL(let value):
            "invalid Reteno base URL \"\(value)\": expected an absolute http or https URL, like https://mobile-api.reteno.com"
        }
    }
}
