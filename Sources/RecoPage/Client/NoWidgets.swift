import RecoKit

/// Why a vendor gave a page no widgets: it did not answer within the page's budget, answered an error
/// (an HTTP status, or a vendor's own code such as Segmentify's `NO_ACCOUNT`), could not be reached,
/// answered more bytes than allowed, or answered something that did not decode (with the report).
///
/// The page is rendered without that vendor's blocks; log the description, which says which vendor
/// and why in one line: `segmentify: no answer within 300 ms`.
///
/// ```swift
/// do {
///     let reply = try await client.widgets(for: segmentify, as: Product.self, budget: .milliseconds(300))
///     print(reply.widgets.count)
/// } catch {
///     if error.kind == .outOfBudget { print("\(error.vendor) is slow") }
///     print(error)   // what failed, and where
/// }
/// ```
public struct NoWidgets: Error, Sendable, CustomStringConvertible {
    private enum Base: Sendable {
        case outOfBudget(Duration)
        case vendorError(code: String, message: String)
        case httpStatus(Int, body: String)
        case network(any Error)
        case tooLarge(limit: Int)
        case decodingFailed(PayloadError?, DecodingReport)
    }

    /// What kind of reason this is; compare with the static members (`error.kind == .outOfBudget`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// The kind's name as a metric's label value, in snake case (`out_of_budget`).
        public let label: String
        /// No whole answer within the page's budget (slow headers, slow body, or waiting for a free slot).
        public static let outOfBudget = Kind(name: "outOfBudget", label: "out_of_budget")
        /// The vendor answered with its own error code (``NoWidgets/vendorCode``).
        public static let vendorError = Kind(name: "vendorError", label: "vendor_error")
        /// The vendor answered an HTTP status other than 2xx (``NoWidgets/status``) and no code of its own.
        public static let httpStatus = Kind(name: "httpStatus", label: "http_status")
        /// The vendor could not be reached: no answer at all (refused, reset, DNS, TLS).
        public static let network = Kind(name: "network", label: "network")
        /// The answer was larger than the client reads (``RecommendationsClient/maxReplyBytes``).
        public static let tooLarge = Kind(name: "tooLarge", label: "too_large")
        /// The answer did not decode, or no widget of it decoded into your model (``NoWidgets/report``).
        public static let decodingFailed = Kind(name: "decodingFailed", label: "decoding_failed")
        /// Every kind.
        public static let all: [Kind] = [.outOfBudget, .vendorError, .httpStatus, .network, .tooLarge, .decodingFailed]
        public var description: String { name }
    }

    private let base: Base
    /// The vendor that gave no widgets.
    public let vendor: Vendor

    private init(_ base: Base, vendor: Vendor) {
        self.base = base
        self.vendor = vendor
    }

    /// No whole answer within `budget`.
    public static func outOfBudget(_ vendor: Vendor, budget: Duration) -> NoWidgets { NoWidgets(.outOfBudget(budget), vendor: vendor) }
    /// The vendor's own error code and what it means.
    public static func vendorError(_ vendor: Vendor, code: String, message: String) -> NoWidgets {
        NoWidgets(.vendorError(code: code, message: message), vendor: vendor)
    }
    /// An HTTP status other than 2xx, with the start of the body.
    public static func httpStatus(_ vendor: Vendor, status: Int, body: String) -> NoWidgets { NoWidgets(.httpStatus(status, body: body), vendor: vendor) }
    /// No answer at all: the transport threw `error`.
    public static func network(_ vendor: Vendor, _ error: any Error) -> NoWidgets { NoWidgets(.network(error), vendor: vendor) }
    /// An answer over `limit` bytes.
    public static func tooLarge(_ vendor: Vendor, limit: Int) -> NoWidgets { NoWidgets(.tooLarge(limit: limit), vendor: vendor) }
    /// An answer that did not decode (`error`), or whose widgets all failed to (`report`).
    public static func decodingFailed(_ vendor: Vendor, error: PayloadError?, report: DecodingReport) -> NoWidgets {
        NoWidgets(.decodingFailed(error, report), vendor: vendor)
    }

    /// The kind of reason.
    public var kind: Kind {
        switch base {
        case .outOfBudget: .outOfBudget
        case .vendorError: .vendorError
        case .httpStatus: .httpStatus
        case .network: .network
        case .tooLarge: .tooLarge
        case .decodingFailed: .decodingFailed
        }
    }

    /// The vendor's own error code (`NO_ACCOUNT`), for ``Kind/vendorError``.
    public var vendorCode: String? {
        if case .vendorError(let code, _) = base { return code }
        return nil
    }

    /// The HTTP status, for ``Kind/httpStatus``.
    public var status: Int? {
        if case .httpStatus(let status, _) = base { return status }
        return nil
    }

    /// What the transport threw, for ``Kind/network`` (a `URLError`, or your transport's own error, such
    /// as one saying the reply grew past a size it reads).
    public var networkError: (any Error)? {
        if case .network(let error) = base { return error }
        return nil
    }

    /// The error that stopped decoding, for ``Kind/decodingFailed`` when the reply as a whole was unreadable.
    public var payloadError: PayloadError? {
        if case .decodingFailed(let error, _) = base { return error }
        return nil
    }

    /// What failed to decode and where, for ``Kind/decodingFailed``.
    public var report: DecodingReport? {
        if case .decodingFailed(_, let report) = base { return report }
        return nil
    }

    public var description: String {
        switch base {
        case .outOfBudget(let budget):
            "\(vendor): no answer within \(Self.milliseconds(budget))"
        case .vendorError(let code, let message):
            "\(vendor): answered \(code): \(message)"
        case .httpStatus(let status, let body):
            body.isEmpty ? "\(vendor): answered HTTP \(status)" : "\(vendor): answered HTTP \(status): \(body)"
        case .network(let error):
            "\(vendor): unreachable: \(RecommendationsClient.brief(error))"
        case .tooLarge(let limit):
            "\(vendor): answered more than \(limit) bytes"
        case .decodingFailed(let error?, _):
            "\(vendor): the answer did not decode: \(error)"
        case .decodingFailed(nil, let report):
            report.failures.isEmpty && report.notices.isEmpty
                ? "\(vendor): the answer held no widget"
                : "\(vendor): no widget decoded: \(Self.firstLines(of: report))"
        }
    }

    /// The report's first failures and notices, a line each, then how many more `report` holds: one
    /// hostile reply can give a hundred thousand, and these words go into a log at every page.
    static func firstLines(of report: DecodingReport, count: Int = 10) -> String {
        let failures = report.failures.prefix(count).map { "failure: \($0)" }
        let notices = report.notices.prefix(count - failures.count).map { "notice: \($0)" }
        let total = report.failureCount + report.noticeCount
        let shown = (failures + notices).joined(separator: "\n")
        guard total > failures.count + notices.count else { return shown }
        let held = report.unlistedSummary == nil ? "the report holds them all" : "the report lists the first \(DecodingReport.mostListed) of each and counts the rest"
        return shown + "\n… and \(total - failures.count - notices.count) more (\(held))"
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
