import Foundation

/// Decodes a Segmentify reply to events into recommendation widgets.
///
/// The reply is `{"statusCode":"SUCCESS","responses":[[item, …], …], …}`, one inner array per event
/// sent. Every inner array is read, in order, and every `recommendProducts` item becomes a widget whose
/// products are assembled by the vendor's rule (see ``BlockAssembly`` in the source, summarised here):
/// static items first; then each dynamic item's products up to its `itemCount`, a short source's share
/// carried over to the next; products already shown left out under `ELIMINATE_DUPLICATES` /
/// `ELIMINATE_PREVIOUS` (except those of `RECOMMENDATION_SOURCE_LAST_VISITED` /
/// `RECOMMENDATION_EVENT_DATA`); `notificationTitleMap[language]` over `notificationTitle`.
///
/// The widget's `instanceId` is `params.instanceId`, its `interactionId` is `params.actionId`, its
/// `path` the item's (`$.responses[0][1]`), and each product's path its place in
/// `recommendedProducts`: `$.responses[0][1].params.recommendedProducts["RECOMMENDATION_SMART_OFFERS|TODAY|NONE"][3]`.
///
/// Reported in ``Recommendations/report``, never failing the reply:
/// - an item of another type (`sendBannerDetails`, …) or without a type: ``DecodingNotice/Kind/skippedItem``;
/// - a block with no products after assembly, not returned: ``DecodingNotice/Kind/emptyWidget``;
/// - a product left out by elimination: ``DecodingNotice/Kind/duplicateEliminated``;
/// - a source with no products or an unreadable count: ``DecodingNotice/Kind/skippedSource``;
/// - a product that is not an object or has no productId: a ``ProductFailure`` with its path.
///
/// `responses` that is empty, or holds only empty arrays (no campaign matched the event), is a normal
/// reply: the result has no widgets and one ``DecodingNotice/Kind/noBlocks`` notice. A reply without a
/// `responses` key is not a recommendation reply and is an error.
///
/// ```swift
/// let reply = try SegmentifyRecommendations.decode(body, language: "TR")
/// for widget in reply.widgets { print(widget.instanceId, widget.title, widget.products.map(\.productId)) }
/// ```
public enum SegmentifyRecommendations {
    /// Decodes the bytes of a Segmentify reply.
    /// - Parameter language: the request's language (`"TR"`, `"EN"`, …), choosing titles from
    ///   `notificationTitleMap`; nil keeps `notificationTitle`.
    /// - Throws: ``PayloadError``: `invalidJSON` with line and column; `vendorError` when `statusCode`
    ///   is not `SUCCESS` (see ``SegmentifyStatus``); `missingKey`, `typeMismatch` or `invalidValue`
    ///   with the JSON path of a malformed envelope or block (including inside `dynamicItems(json)`).
    public static func decode(_ data: Data, language: String? = nil) throws(PayloadError) -> Recommendations<RawProduct> {
        try decode(JSONValue(parsing: data), language: language)
    }

    /// Decodes a Segmentify reply already parsed. See ``decode(_:language:)-(Data,_)``.
    public static func decode(_ json: JSONValue, language: String? = nil) throws(PayloadError) -> Recommendations<RawProduct> {
        try SegmentifyStatus.check(json)
        let responsesPath = JSONPath.root.appending(key: "responses")
        guard let responses = json["responses"] else { throw .missingKey("responses", at: .root) }
        guard case .array(let groups) = responses else {
            throw .typeMismatch(expected: "an array of response arrays", found: responses, at: responsesPath)
        }
        var widgets: [Widget<RawProduct>] = []
        var report = DecodingReport()
        var assembly = BlockAssembly()
        var itemCount = 0
        for (groupIndex, group) in groups.enumerated() {
            let groupPath = responsesPath.appending(index: groupIndex)
            guard case .array(let items) = group else {
                throw .typeMismatch(expected: "an array of response items", found: group, at: groupPath)
            }
            itemCount += items.count
            for (itemIndex, item) in items.enumerated() {
                let itemPath = groupPath.appending(index: itemIndex)
                guard case .object(let members) = item else {
                    throw .typeMismatch(expected: "a response item object", found: item, at: itemPath)
                }
                guard case .string(let type)? = members["type"] else {
                    report.notices.append(DecodingNotice(.skippedItem, at: itemPath, "a response item without a type string is not a recommendation block"))
                    continue
                }
                guard type == "recommendProducts" else {
                    report.notices.append(DecodingNotice(.skippedItem, at: itemPath, "a \(type) item is not a recommendation block"))
                    continue
                }
                let block = try SegmentifyBlock(item: itemPath, params: members["params"], language: language)
                report.notices += block.notices
                let products = assembly.assemble(block, report: &report)
                if products.isEmpty {
                    report.notices.append(DecodingNotice(.emptyWidget, at: itemPath, "\(block.instanceId) has no products to show, so it is not shown"))
                    continue
                }
                widgets.append(Widget(vendor: .segmentify, instanceId: block.instanceId, interactionId: block.interactionId, title: block.title, rawProducts: products, path: itemPath))
            }
        }
        if itemCount == 0 {
            report.notices.append(DecodingNotice(.noBlocks, at: responsesPath, "the reply holds no response items: no campaign answered the event"))
        }
        return Recommendations(widgets: widgets, report: report)
    }
}
