/// Everything decoding did not turn into a shown product: failures (products that did not decode)
/// and notices (things passed over on purpose).
public struct DecodingReport: Hashable, Sendable, CustomStringConvertible {
    /// Products that did not decode, with where and why.
    public var failures: [ProductFailure]
    /// Things passed over on purpose, with where and why.
    public var notices: [DecodingNotice]

    public init(failures: [ProductFailure] = [], notices: [DecodingNotice] = []) {
        self.failures = failures
        self.notices = notices
    }

    /// True when nothing failed (notices may still be present).
    public var hasFailures: Bool { !failures.isEmpty }

    /// The notices of one kind.
    public func notices(_ kind: DecodingNotice.Kind) -> [DecodingNotice] { notices.filter { $0.kind == kind } }

    /// Adds another report's entries after this one's.
    public mutating func merge(_ other: DecodingReport) {
        failures += other.failures
        notices += other.notices
    }

    public var description: String {
        if failures.isEmpty && notices.isEmpty { return "no failures" }
        return (failures.map { "failure: \($0)" } + notices.map { "notice: \($0)" }).joined(separator: "\n")
    }
}
