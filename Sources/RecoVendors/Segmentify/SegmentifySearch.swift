import Foundation

/// Decodes a Segmentify reply to a SEARCH event: the search box's products and campaign.
///
/// The result sits at `search[0][0]`: `products`, `campaign`, and `categoryProducts`, `brandProducts`,
/// `keywords`, `categories`, `brands`, `lastSearches`, `banners`. Whether it is before or after search is
/// the campaign's identity (`campaign.instanceId` `BEFORE_SEARCH` or `SEARCH`), the rule the vendor's
/// guide gives for search clicks; the products widget's instanceId is then `bs_product` or `product`.
/// Keys the toolkit does not know are kept in ``SegmentifySearchResult/raw``, never an error; a product
/// that is not usable is reported, not fatal.
///
/// ```swift
/// let result = try SegmentifySearch.decode(data, language: "TR")
/// result.phase                     // .beforeSearch
/// result.products.instanceId       // "bs_product": what a click on one of them carries
/// result.campaign.minCharacterCount
/// ```
public enum SegmentifySearch {
    /// Decodes the bytes of a Segmentify search reply.
    /// - Parameters:
    ///   - language: chooses the campaign texts (title, not-found text); nil for none.
    /// - Throws: ``PayloadError``: `invalidJSON`; `vendorError` for a `statusCode` other than `SUCCESS`;
    ///   `missingKey` / `typeMismatch` with the path when there is no `search[0][0]` object or campaign;
    ///   `invalidValue` when the campaign identity is neither `BEFORE_SEARCH` nor `SEARCH`.
    ///   - limits: the most products kept per group and over the reply (``ReplyLimits``, whose `json` bounds the parse: depth, sizes, reply size); the rest are
    ///     left out with a ``DecodingNotice/Kind/limitReached`` notice at the first one's path.
    public static func decode(_ data: Data, language: String? = nil, limits: ReplyLimits = .default) throws(PayloadError) -> SegmentifySearchResult {
        try decode(JSONValue(parsing: data, limits: limits.json), language: language, limits: limits)
    }

    /// Decodes a Segmentify search reply already parsed. See the `Data` overload.
    public static func decode(_ json: JSONValue, language: String? = nil, limits: ReplyLimits = .default) throws(PayloadError) -> SegmentifySearchResult {
        let parts = try decode(node: json, language: language, limits: limits)
        let members = parts.result.objectValue ?? [:]
        return SegmentifySearchResult(
            campaign: parts.campaign,
            products: parts.products,
            categoryProducts: parts.categoryProducts,
            brandProducts: parts.brandProducts,
            keywords: members["keywords"],
            categories: members["categories"],
            brands: members["brands"],
            lastSearches: members["lastSearches"]?.arrayValue?.compactMap(\.scalarText) ?? [],
            banners: members["banners"]?.arrayValue ?? [],
            raw: parts.result,
            report: parts.report,
            language: language)
    }

    /// What a search reply's products and campaign decode to, from a tree or a tape: everything of
    /// ``SegmentifySearchResult`` but the raw values, so a reply read in place stays in place.
    struct Parts<Node: JSONNode> {
        var campaign: SegmentifySearchCampaign
        var products: Widget<RawProduct>
        var categoryProducts: [SegmentifySearchGroup]
        var brandProducts: [SegmentifySearchGroup]
        var report: DecodingReport
        /// `search[0][0]`.
        var result: Node

        /// The products as a one-widget reply, as ``SegmentifySearchResult/recommendations``.
        var recommendations: Recommendations<RawProduct> {
            Recommendations(widgets: products.items.isEmpty ? [] : [products], report: report)
        }
    }

    /// Decodes a search reply read as a tree or a tape (see the `JSONValue` overload).
    static func decode<Node: JSONNode>(node json: Node, language: String?, limits: ReplyLimits) throws(PayloadError) -> Parts<Node> {
        try SegmentifyStatus.check(node: json)
        let searchPath = JSONPath.root.appending(key: "search")
        guard let search = json["search"] else { throw .missingKey("search", at: .root) }
        guard let groups = search.nodeElements else { throw .typeMismatch(expected: "an array of search arrays", found: search.kindPlaceholder, at: searchPath) }
        let groupPath = searchPath.appending(index: 0)
        guard let group = groups.first else { throw .invalidValue("the reply holds no search result", at: searchPath) }
        guard let results = group.nodeElements else { throw .typeMismatch(expected: "an array of search results", found: group.kindPlaceholder, at: groupPath) }
        let path = groupPath.appending(index: 0)
        guard let result = results.first else { throw .invalidValue("the reply holds no search result", at: groupPath) }
        guard result.isObject else { throw .typeMismatch(expected: "a search result object", found: result.kindPlaceholder, at: path) }

        guard let campaignValue = result["campaign"] else { throw .missingKey("campaign", at: path) }
        let campaign = try SegmentifySearchCampaign(campaignValue.tree, at: path.appending(key: "campaign"))
        let clickId = campaign.phase.clickInstanceId
        var report = DecodingReport()
        var budget = ProductBudget(limits)

        let productsPath = path.appending(key: "products")
        let products = try productList(result["products"], at: productsPath, instanceId: clickId, budget: &budget, report: &report)
        let title = campaign.phase == .beforeSearch ? (language.flatMap { campaign.texts(for: $0)?.popularProductsText } ?? "") : ""
        let widget = Widget(vendor: .segmentify, instanceId: clickId, interactionId: campaign.instanceId, title: title, rawProducts: products, path: productsPath)

        return Parts(
            campaign: campaign,
            products: widget,
            categoryProducts: groupsOf(result["categoryProducts"], at: path.appending(key: "categoryProducts"), instanceId: clickId, budget: &budget, report: &report),
            brandProducts: groupsOf(result["brandProducts"], at: path.appending(key: "brandProducts"), instanceId: clickId, budget: &budget, report: &report),
            report: report,
            result: result)
    }

    /// Reads a product array (absent or null is empty); products that are not usable are reported.
    private static func productList<Node: JSONNode>(_ value: Node?, at path: JSONPath, instanceId: String, budget: inout ProductBudget, report: inout DecodingReport) throws(PayloadError) -> [(RawProduct, JSONPath)] {
        guard let value, !value.isNull else { return [] }
        guard let elements = value.nodeElements else { throw .typeMismatch(expected: "an array of products", found: value.kindPlaceholder, at: path) }
        var products: [(RawProduct, JSONPath)] = []
        products.reserveCapacity(min(elements.count, budget.widgetCapacity))
        for (index, element) in elements.enumerated() {
            let elementPath = path.appending(index: index)
            guard budget.admits(products.count, at: elementPath, of: instanceId, report: &report) else { break }
            do {
                products.append((try element.rawProduct(at: elementPath), elementPath))
                budget.take()
            } catch {
                report.add(ProductFailure(index: index, productId: element["productId"]?.scalarText, instanceId: instanceId, path: error.path, reason: error.message))
            }
        }
        return products
    }

    /// Reads an object of product arrays by name, sorted by name. These are extras beside the main
    /// products, so a value of another shape is not fatal: it is reported as
    /// ``DecodingNotice/Kind/unexpectedShape`` and stays in ``SegmentifySearchResult/raw``.
    private static func groupsOf<Node: JSONNode>(_ value: Node?, at path: JSONPath, instanceId: String, budget: inout ProductBudget, report: inout DecodingReport) -> [SegmentifySearchGroup] {
        guard let value, !value.isNull else { return [] }
        guard let names = value.nodeKeys else {
            report.add(DecodingNotice(.unexpectedShape, at: path, "expected an object of product arrays by name, found \(value.kindPlaceholder.kindDescription); left out"))
            return []
        }
        var groups: [SegmentifySearchGroup] = []
        for name in names.sorted() {
            let groupPath = path.appending(key: name)
            guard let member = value[name], member.nodeElements != nil else {
                report.add(DecodingNotice(.unexpectedShape, at: groupPath, "expected an array of products, found \(value[name]?.kindPlaceholder.kindDescription ?? "nothing"); left out"))
                continue
            }
            guard let products = try? productList(member, at: groupPath, instanceId: instanceId, budget: &budget, report: &report) else { continue }
            let items = products.enumerated().map { WidgetItem(position: $0.offset + 1, product: $0.element.0, raw: $0.element.0, path: $0.element.1) }
            groups.append(SegmentifySearchGroup(name: name, items: items))
        }
        return groups
    }
}
