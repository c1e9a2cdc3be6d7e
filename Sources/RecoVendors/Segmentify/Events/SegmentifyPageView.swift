import RecoKit

/// Segmentify `PAGE_VIEW`: a visitor views a page (a screen of an app).
///
/// ```swift
/// let page = SegmentifyPageView(category: .categoryPage, subCategory: "Men>Shoes>Sports", common: common)
/// ```
public struct SegmentifyPageView: SegmentifyEvent {
    /// The wire name, `PAGE_VIEW`.
    public static let eventName = "PAGE_VIEW"
    /// Errors name fields as `pageView.<field>`.
    public static let fieldPrefix = "pageView"

    /// The page's category (mandatory): one of Segmentify's predefined values or your own.
    public var category: SegmentifyPageCategory
    /// A finer category, for product and category pages (`Men>Shoes>Sports`).
    public var subCategory: String?
    /// The fields every event shares.
    public var common: SegmentifyCommonFields

    /// A page view.
    public init(category: SegmentifyPageCategory, subCategory: String? = nil, common: SegmentifyCommonFields) {
        self.category = category
        self.subCategory = subCategory
        self.common = common
    }

    /// The event\'s own fields, checked against the guide.
    public func eventFields() throws(SegmentifyEventError) -> [String: JSONValue] {
        try SegmentifyFieldRules.text(category.rawValue, "pageView.category")
        var fields: [String: JSONValue] = ["category": .string(category.rawValue)]
        if let subCategory {
            try SegmentifyFieldRules.text(subCategory, "pageView.subCategory")
            fields["subCategory"] = .string(subCategory)
        }
        return fields
    }
}

/// A page category: Segmentify's predefined values (``homePage``, ``productPage`` …) or any other
/// non-empty name your account uses (`"Purchase Success Page"`).
public struct SegmentifyPageCategory: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The category as sent.
    public let rawValue: String
    /// A category by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A category by name.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `Home Page`.
    public static let homePage = SegmentifyPageCategory(rawValue: "Home Page")
    /// `Product Page` (send a product view too).
    public static let productPage = SegmentifyPageCategory(rawValue: "Product Page")
    /// `Category Page`.
    public static let categoryPage = SegmentifyPageCategory(rawValue: "Category Page")
    /// `Basket Page`.
    public static let basketPage = SegmentifyPageCategory(rawValue: "Basket Page")
    /// `Checkout Page`.
    public static let checkoutPage = SegmentifyPageCategory(rawValue: "Checkout Page")
    /// `Search Page`.
    public static let searchPage = SegmentifyPageCategory(rawValue: "Search Page")
    /// `404 Page`.
    public static let notFoundPage = SegmentifyPageCategory(rawValue: "404 Page")

    /// The seven values Segmentify predefines, in the guide's order.
    public static let predefined: [SegmentifyPageCategory] = [.homePage, .productPage, .categoryPage, .basketPage,
                                                              .checkoutPage, .searchPage, .notFoundPage]
    /// Whether this is one of Segmentify's predefined values.
    public var isPredefined: Bool { Self.predefined.contains(self) }

    public var description: String { rawValue }
}
