import RecoKit

extension VendorPayloadKind {
    /// The bounds a payload of this kind is read with when none are given.
    ///
    /// Replies that carry recommendations get ``RecoKit/JSONLimits/default`` (documents of 64 MiB): their
    /// products are read in place, so a reply costs about twice its bytes. The other kinds are made into
    /// values whole when read (every key, segment, product of a purchase: several times their bytes),
    /// and hold little in real use, so their documents are capped lower: 1 MiB for a Segmentify key
    /// reply (two ids), a Bloomreach segments answer and an 8digits reply; 4 MiB for a Connectif purchase
    /// (thousands of products). A larger one is a `limitExceeded` error naming the cap, before any of it
    /// is made; give your own limits to read more.
    public var defaultLimits: JSONLimits {
        switch self {
        case .segmentifyRecommendations, .segmentifySearch, .retenoRecommendations: .default
        case .segmentifyKeys, .bloomreachSegments, .eightDigitsReply: JSONLimits(maximumInputBytes: 1 << 20)
        case .connectifPurchase: JSONLimits(maximumInputBytes: 4 << 20)
        }
    }

    /// The error for a document of `byteCount` bytes over `limits`, nil when it is within them.
    func sizeError(byteCount: Int, limits: JSONLimits) -> PayloadError? {
        guard byteCount > limits.maximumInputBytes else { return nil }
        return .limitExceeded(
            "\(title) of \(byteCount) bytes, more than \(limits.maximumInputBytes) (JSONLimits.maximumInputBytes; VendorPayloadKind.defaultLimits for this kind)",
            at: .root)
    }
}
