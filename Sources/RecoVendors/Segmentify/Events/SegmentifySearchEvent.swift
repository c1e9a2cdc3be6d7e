import Foundation
import RecoKit

/// Segmentify `SEARCH`: before the visitor searches (the search box opens; no query) or after (the
/// typed query). The reply carries the search campaign and products (decode with `SegmentifySearch`).
///
/// ```swift
/// let opened = SegmentifySearchEvent.beforeSearch(common: common)
/// let typed = SegmentifySearchEvent.afterSearch(query: "Dress", common: common)
/// ```
public struct SegmentifySearchEvent: SegmentifyEvent {
    /// The wire name, `SEARCH`.
    public static let eventName = "SEARCH"
    /// Errors name fields as `search.<field>`.
    public static let fieldPrefix = "search"

    /// The typed words; nil (or empty, as the guide allows) before the search.
    public var query: String?
    /// The fields every event shares.
    public var common: SegmentifyCommonFields

    /// A search event; prefer ``beforeSearch(common:)`` and ``afterSearch(query:common:)``.
    public init(query: String?, common: SegmentifyCommonFields) {
        self.query = query
        self.common = common
    }

    /// The visitor opened the search, before typing: no query is sent.
    public static func beforeSearch(common: SegmentifyCommonFields) -> SegmentifySearchEvent {
        SegmentifySearchEvent(query: nil, common: common)
    }

    /// The visitor searched for `query` (mandatory, not blank).
    public static func afterSearch(query: String, common: SegmentifyCommonFields) -> SegmentifySearchEvent {
        SegmentifySearchEvent(query: query, common: common)
    }

    /// Whether this is the before-search event (no query).
    public var isBeforeSearch: Bool { query?.isEmpty ?? true }

    /// The event\'s own fields, checked against the guide.
    public func eventFields() throws(SegmentifyEventError) -> [String: JSONValue] {
        guard let query, !query.isEmpty else { return [:] }
        if query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw .invalid("search.query", must: "hold words after a search, or be empty before it", got: SegmentifyFieldRules.quoted(query))
        }
        return ["query": .string(query)]
    }
}
