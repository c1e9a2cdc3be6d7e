/// How much one vendor reply may make a decoder do: bounds on the counts a vendor sends and on the
/// products kept, so that a hostile or broken reply costs bounded time and memory and never traps.
///
/// A limit that is reached is never an error: the decoder keeps what fits, leaves the rest out, and
/// says so in ``DecodingReport/notices`` with a ``DecodingNotice/Kind/limitReached`` notice at the JSON
/// path of the first value it cut (`$.recoms[10000]`, or a Segmentify `itemCount`).
///
/// ```swift
/// var limits = ReplyLimits()
/// limits.productsPerWidget = 500                       // a storefront never shows more
/// let reply = try VendorPayloads.decode(data, limits: limits)
/// for notice in reply.report.notices where notice.kind == .limitReached { print(notice) }
/// ```
///
/// ``json`` holds the JSON parser's own limits (nesting depth, sizes of numbers and strings, the reply's
/// size): reaching one of those is an error (`limitExceeded`, with the path, line and column), since a
/// reply cut in the middle of its JSON cannot be read at all.
public struct ReplyLimits: Hashable, Sendable {
    /// The parser's limits for the reply's bytes. Default ``RecoKit/JSONLimits/default``.
    public var json: JSONLimits = .default
    /// The largest `itemCount` a Segmentify dynamic item (algorithm) may ask for; a larger one, however
    /// large (9223372036854775807, or more digits than an `Int` holds), is clamped to this with a notice.
    /// Default 1,000 (Segmentify's panel offers a few dozen).
    public var itemCount: Int
    /// The most products one widget keeps; the rest of its products are left out with a notice.
    /// Default 20,000.
    public var productsPerWidget: Int
    /// The most products one reply keeps over all its widgets; once reached, later products and
    /// widgets are left out with one notice. Default 100,000.
    public var productsPerReply: Int

    /// Limits with the given values (each at least 0; a negative one counts as 0).
    public init(itemCount: Int = 1_000, productsPerWidget: Int = 20_000, productsPerReply: Int = 100_000, json: JSONLimits = .default) {
        self.json = json
        self.itemCount = max(0, itemCount)
        self.productsPerWidget = max(0, productsPerWidget)
        self.productsPerReply = max(0, productsPerReply)
    }

    /// The default limits (`itemCount` 1,000, 20,000 products per widget, 100,000 per reply).
    public static let `default` = ReplyLimits()

    /// No bound on products, for tools that must see a whole reply; `itemCount` is still clamped (to
    /// 1,000,000,000), so the arithmetic on it cannot overflow.
    public static let unlimited = ReplyLimits(itemCount: 1_000_000_000, productsPerWidget: .max, productsPerReply: .max)
}

extension DecodingNotice.Kind {
    /// A ``ReplyLimits`` bound was reached: a count was clamped, or products were left out. The
    /// notice's path is where the first value was cut.
    public static let limitReached = DecodingNotice.Kind("limitReached")
}
