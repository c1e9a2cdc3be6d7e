import RecoVendors
import RecoRelay

/// `--max-products N`, shared by decode, render and preview: the ``ReplyLimits`` a payload is decoded
/// with. N bounds the products of each widget; the reply's own bound is raised to N when it is lower.
enum LimitsOption {
    static let name = "max-products"
    static let help = """
          --max-products N  Keep at most N products per widget (default \(ReplyLimits.default.productsPerWidget),
                            and \(ReplyLimits.default.productsPerReply) per reply); what is left out is reported
                            as a limitReached notice with its JSON path.
        """

    /// The limits the command line asks for.
    static func limits(_ arguments: Arguments) throws(UsageError) -> ReplyLimits {
        var limits = ReplyLimits.default
        guard let text = arguments.value(name) else { return limits }
        guard let count = Int(text), count > 0 else { throw UsageError("--max-products is a whole number above 0, not \"\(text)\"") }
        limits.productsPerWidget = count
        limits.productsPerReply = max(limits.productsPerReply, count)
        return limits
    }
}
