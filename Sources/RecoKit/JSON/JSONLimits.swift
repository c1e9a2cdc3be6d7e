/// The bounds the JSON parser holds untrusted input to, so that a hostile or broken reply is refused
/// with an error instead of exhausting memory, time or the stack.
///
/// Every limit is checked while parsing, before the work it bounds is done, and reaching one throws a
/// ``PayloadError`` of kind ``PayloadError/Kind/limitExceeded`` naming the limit, the JSON path and the
/// line and column where it was reached:
///
/// ```
/// JSON limit exceeded: nesting deeper than 512 levels (JSONLimits.maximumDepth) at $.recoms[0].attributes[0][0]… (line 1, column 553)
/// ```
///
/// The defaults suit vendor replies; raise or lower them per call where you take bytes:
///
/// ```swift
/// var limits = JSONLimits.default
/// limits.maximumInputBytes = 4 << 20                    // this vendor never sends more than 4 MB
/// let json = try JSONValue(parsing: data, limits: limits)
///
/// var replyLimits = ReplyLimits.default                 // a vendor reply's: the JSON's, and its products'
/// replyLimits.json = limits
/// let reply = try VendorPayloads.decode(data, limits: replyLimits)
/// ```
///
/// The parser keeps its own stack of open arrays and objects (it does not recurse), so parsing costs no
/// thread stack at any depth. The values it returns are compared, written and freed recursively, though,
/// so ``maximumDepth`` is also what keeps that work safe: the default's 512 levels need well under 64 KB
/// of stack; raise it only as far as your threads' stacks allow.
public struct JSONLimits: Hashable, Sendable {
    /// The deepest nesting of arrays and objects accepted (the document's own array or object is level 1).
    /// Default 512.
    public var maximumDepth: Int
    /// The longest number literal accepted, in bytes (`-12.50e3` is 8). Default 128: far more digits than
    /// any price or count has, and short enough that converting one costs nothing.
    public var maximumNumberLength: Int
    /// The longest string accepted (a value or a key), in bytes as written between its quotes, escapes
    /// included. Default 16 MiB.
    public var maximumStringBytes: Int
    /// The largest document accepted, in bytes. Default 64 MiB: a generous cap for one vendor reply
    /// (the largest sample reply is about 110 KB; 100,000 products is about 50 MB).
    public var maximumInputBytes: Int

    /// Limits with the given values; each defaults to the value of ``default``.
    public init(
        maximumDepth: Int = 512, maximumNumberLength: Int = 128, maximumStringBytes: Int = 16 << 20,
        maximumInputBytes: Int = 64 << 20
    ) {
        self.maximumDepth = maximumDepth
        self.maximumNumberLength = maximumNumberLength
        self.maximumStringBytes = maximumStringBytes
        self.maximumInputBytes = maximumInputBytes
    }

    /// The limits used when none are given: depth 512, numbers of 128 bytes, strings of 16 MiB, documents
    /// of 64 MiB.
    public static let `default` = JSONLimits()
}
