/// Products of a search reply grouped under a name (`categoryProducts["Ayakkabı"]`, `brandProducts["Nike"]`).
public struct SegmentifySearchGroup: Sendable {
    /// The category or brand the products are grouped under.
    public var name: String
    /// The products in order, with 1-based positions and paths.
    public var items: [WidgetItem<RawProduct>]

    public init(name: String, items: [WidgetItem<RawProduct>]) {
        self.name = name
        self.items = items
    }
}

/// A decoded Segmentify search reply (`search[0][0]`).
///
/// ``products`` is a widget like any recommendation block, so renderers and the tracker need nothing
/// special: its `instanceId` is the one a click on a search product must carry (`bs_product` before
/// search, `product` after search; see ``SegmentifySearchPhase``), its `interactionId` the campaign
/// identity (`BEFORE_SEARCH` / `SEARCH`), and its title, before search, the campaign's
/// `popularProductsText` in the requested language (empty after search, or when there is none).
/// After a search that found nothing, ``products`` has no items; show ``notFoundText``.
public struct SegmentifySearchResult: Sendable {
    /// The search campaign: identity, delays, counts, texts.
    public var campaign: SegmentifySearchCampaign
    /// The products, as a widget whose instanceId is the search click's.
    public var products: Widget<RawProduct>
    /// `categoryProducts`: products by category, sorted by category name.
    public var categoryProducts: [SegmentifySearchGroup]
    /// `brandProducts`: products by brand, sorted by brand name.
    public var brandProducts: [SegmentifySearchGroup]
    /// `keywords` as sent (suggested queries), nil when absent.
    public var keywords: JSONValue?
    /// `categories` as sent (matching categories), nil when absent.
    public var categories: JSONValue?
    /// `brands` as sent (matching brands), nil when absent.
    public var brands: JSONValue?
    /// `lastSearches`: the visitor's recent queries, most recent first as sent.
    public var lastSearches: [String]
    /// `banners` as sent.
    public var banners: [JSONValue]
    /// The whole `search[0][0]` object, with any key not listed above.
    public var raw: JSONValue
    /// Products that are not usable products (no productId, not an object), with where and why.
    public var report: DecodingReport
    /// The language the result was decoded for.
    public var language: String?

    /// Before or after search.
    public var phase: SegmentifySearchPhase { campaign.phase }
    /// The text to show when nothing was found, in the requested language.
    public var notFoundText: String? { language.flatMap { campaign.texts(for: $0)?.notFoundText } }

    /// The products as a one-widget reply (no widget when there are no products), ready for
    /// ``Recommendations/decoded(as:fields:filters:)``.
    public var recommendations: Recommendations<RawProduct> {
        Recommendations(widgets: products.items.isEmpty ? [] : [products], report: report)
    }
}
