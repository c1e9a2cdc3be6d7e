/// Everything decoding did not turn into a shown product: failures (products that did not decode)
/// and notices (things passed over on purpose).
///
/// A report lists at most ``mostListed`` failures and as many notices, whatever the reply: one hostile
/// reply could otherwise make millions of them, each with its path and words. Past that, an entry is
/// counted, not kept: ``unlistedFailures`` and ``unlistedNotices`` (by kind) say how many were left
/// out, and ``description`` says so too. Decoders add entries with ``add(_:)-(DecodingNotice)`` and
/// ``add(_:)-(ProductFailure)``, which keep the bound.
public struct DecodingReport: Hashable, Sendable, CustomStringConvertible {
    /// Products that did not decode, with where and why: the first ``mostListed``.
    public var failures: [ProductFailure]
    /// Things passed over on purpose, with where and why: the first ``mostListed``.
    public var notices: [DecodingNotice]
    /// How many failures came after the first ``mostListed`` and are not listed.
    public private(set) var unlistedFailures = 0
    /// How many notices of each kind came after the first ``mostListed`` and are not listed.
    public private(set) var unlistedNotices: [DecodingNotice.Kind: Int] = [:]

    /// The most failures, and the most notices, a report lists; the rest are counted.
    public static let mostListed = 1_000

    public init(failures: [ProductFailure] = [], notices: [DecodingNotice] = []) {
        self.failures = failures
        self.notices = notices
    }

    /// True when nothing failed (notices may still be present).
    public var hasFailures: Bool { !failures.isEmpty || unlistedFailures > 0 }

    /// How many notices there were in all, listed or not.
    public var noticeCount: Int { notices.count + unlistedNotices.values.reduce(0, +) }

    /// How many failures there were in all, listed or not.
    public var failureCount: Int { failures.count + unlistedFailures }

    /// The notices of one kind (those listed).
    public func notices(_ kind: DecodingNotice.Kind) -> [DecodingNotice] { notices.filter { $0.kind == kind } }

    /// Lists `notice`, or counts it when ``mostListed`` notices are listed already.
    public mutating func add(_ notice: DecodingNotice) {
        if notices.count < Self.mostListed {
            notices.append(notice)
        } else {
            unlistedNotices[notice.kind, default: 0] += 1
        }
    }

    /// Lists `failure`, or counts it when ``mostListed`` failures are listed already.
    public mutating func add(_ failure: ProductFailure) {
        if failures.count < Self.mostListed {
            failures.append(failure)
        } else {
            unlistedFailures += 1
        }
    }

    /// Adds another report's entries after this one's, within the bound, and its counts of entries not
    /// listed.
    public mutating func merge(_ other: DecodingReport) {
        for failure in other.failures { add(failure) }
        unlistedFailures += other.unlistedFailures
        for notice in other.notices { add(notice) }
        for (kind, count) in other.unlistedNotices { unlistedNotices[kind, default: 0] += count }
    }

    /// What was left out, in words ("and 3 more failures and 2,000 more duplicateEliminated notices, not
    /// listed"), nil when everything is listed.
    public var unlistedSummary: String? {
        var parts: [String] = []
        if unlistedFailures > 0 { parts.append("\(unlistedFailures) more failure\(unlistedFailures == 1 ? "" : "s")") }
        for (kind, count) in unlistedNotices.sorted(by: { $0.key.name < $1.key.name }) {
            parts.append("\(count) more \(kind) notice\(count == 1 ? "" : "s")")
        }
        guard !parts.isEmpty else { return nil }
        return parts.joined(separator: ", ") + " (not listed: a report lists at most \(Self.mostListed) of each)"
    }

    public var description: String {
        if failures.isEmpty && notices.isEmpty && unlistedSummary == nil { return "no failures" }
        let lines = failures.map { "failure: \($0)" } + notices.map { "notice: \($0)" } + (unlistedSummary.map { ["and \($0)"] } ?? [])
        return lines.joined(separator: "\n")
    }
}
