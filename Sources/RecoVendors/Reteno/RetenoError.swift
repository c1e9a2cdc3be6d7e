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
