/// A registered segments callback, as returned by ``RealtimeSegments/register(category:includeFirstLoad:onNewData:)``;
/// pass it to ``RealtimeSegments/unregister(_:)`` to stop listening.
public struct SegmentsCallback: Hashable, Sendable {
    /// A number unique within its ``RealtimeSegments``.
    public let id: Int
    /// The category the callback listens to.
    public let category: SegmentCategory
    /// Whether the callback is notified on its first load even when nothing changed.
    public let includeFirstLoad: Bool
}

/// What a segments callback receives: the current segments of its category for the current customer.
public struct SegmentsUpdate: Hashable, Sendable {
    /// The customer's cookie id.
    public var cookie: String
    /// The category.
    public var category: SegmentCategory
    /// The segments; nil when the answer no longer names (or never named) the category.
    public var segments: [Segment]?
    /// Whether this is the callback's first load (sent because of `includeFirstLoad`, changed or not).
    public var isFirstLoad: Bool

    /// An update.
    public init(cookie: String, category: SegmentCategory, segments: [Segment]?, isFirstLoad: Bool) {
        self.cookie = cookie
        self.category = category
        self.segments = segments
        self.isFirstLoad = isFirstLoad
    }
}
