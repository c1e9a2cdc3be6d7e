/// The segments Bloomreach assigned to one customer, by category: a decoded segments answer.
///
/// Segments are compared as sets: order and duplicates do not matter. A category the answer does not
/// name is absent (`segments(in:)` is nil), which is different from a category named with no segments
/// (`[]`): a category that appears or disappears is a change.
public struct CustomerSegments: Hashable, Sendable {
    /// The segments of each category named in the answer, de-duplicated, in the answer's order.
    public private(set) var categories: [SegmentCategory: [Segment]]

    /// Segments by category; duplicates within a category are removed (the first one is kept).
    public init(_ categories: [SegmentCategory: [Segment]] = [:]) {
        self.categories = categories.mapValues(Self.unique)
    }

    /// The segments of a category; nil when the answer does not name the category.
    public func segments(in category: SegmentCategory) -> [Segment]? { categories[category] }

    /// Whether the answer names the category (possibly with no segments).
    public func contains(_ category: SegmentCategory) -> Bool { categories[category] != nil }

    /// The categories the answer names, sorted by name.
    public var categoryNames: [SegmentCategory] { categories.keys.sorted() }

    /// Whether a category differs from another answer's: it appeared, disappeared, or its set of
    /// segments changed. Order and duplicates do not count.
    public func differs(from other: CustomerSegments, in category: SegmentCategory) -> Bool {
        switch (categories[category], other.categories[category]) {
        case (nil, nil): false
        case (nil, _), (_, nil): true
        case (let mine?, let theirs?): Set(mine) != Set(theirs)
        }
    }

    /// Two answers are equal when they name the same categories with the same sets of segments.
    public static func == (lhs: CustomerSegments, rhs: CustomerSegments) -> Bool {
        lhs.categories.mapValues(Set.init) == rhs.categories.mapValues(Set.init)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(categories.mapValues(Set.init))
    }

    private static func unique(_ segments: [Segment]) -> [Segment] {
        var seen = Set<Segment>()
        return segments.filter { seen.insert($0).inserted }
    }
}
