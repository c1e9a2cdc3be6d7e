import Foundation
@_spi(JSONTape) import RecoKit

/// Decodes a Segmentify reply to events into recommendation widgets.
///
/// The reply is `{"statusCode":"SUCCESS","responses":[[item, …], …], …}`, one inner array per event
/// sent. Every inner array is read, in order, and every `recommendProducts` item becomes a widget:
/// `instanceId` is `params.instanceId`, `interactionId` is `params.actionId`, `title` is
/// `params.notificationTitle` unless `params.notificationTitleMap` (JSON in a string, keyed by
/// language) has a non-empty entry for `language` (the exact key first, then ignoring case), and `path`
/// is the item's (`$.responses[0][1]`). Each product's path is its place in `recommendedProducts`:
/// `$.responses[0][1].params.recommendedProducts["RECOMMENDATION_SMART_OFFERS|TODAY|NONE"][3]`.
///
/// ## Block assembly
/// Products are assembled as Segmentify's own web library does in its deterministic (not shuffled)
/// mode. `dynamicItems` and `staticItems` are JSON inside strings (a plain array is accepted too).
/// A dynamic item's products are under the key `source|timeFrame|score` of `recommendedProducts`, or
/// `source` alone when it has no time frame; in the v3 form `recommendedProducts` is an array whose
/// element 0 holds the static items and element *i* the products of dynamic item *i*-1.
/// 1. **Static items** (`RECOMMENDATION_SOURCE_STATIC_ITEMS`) come first, in order, each unless its
///    productId is already in the block. They never count as shown for later blocks.
/// 2. **Dynamic items** follow, in order. `itemCount` is a whole number, as a string (`"8"`) or a
///    number; anything else counts as 0. A source with count 0 or with no product list is skipped: it
///    adds nothing, not even a share to carry over. Otherwise its count is added to a running
///    *deficit*, and the source takes products, in order, while the deficit is above zero, each one
///    taken lowering it by one. So a source takes its own count plus whatever earlier sources were
///    short of: with counts 4 and 4, a first source holding 1 product leaves a deficit of 3 and the
///    second takes 7. A present but empty list still adds its count, so its whole share carries over.
///    Static items do not lower the deficit.
/// 3. **Elimination**: with `elimination` `ELIMINATE_DUPLICATES` or `ELIMINATE_PREVIOUS`, a dynamic
///    product is skipped when its productId is already in this block, or when an earlier block of the
///    same reply (in any inner array) showed it. Products of `RECOMMENDATION_SOURCE_LAST_VISITED` and
///    `RECOMMENDATION_EVENT_DATA` are exempt from the second test, and never count as shown. Every block
///    records the dynamic products it shows, whatever its own mode. With `NO_ELIMINATION`, no
///    `elimination`, or an unknown mode, nothing is skipped (a product may then appear twice). A skipped
///    product does not lower the deficit: the source looks further down its list.
/// 4. A product that is not an object or has no usable `productId` is not shown and does not lower the
///    deficit; it is reported as a ``ProductFailure`` with its path and reason.
/// 5. A block left with no products is not shown.
///
/// ## Limits
/// ``ReplyLimits`` bound what a reply can make the decoder do: an `itemCount` above
/// ``ReplyLimits/itemCount`` (default 1,000), however large, is clamped to it; a negative one counts
/// as 0; a widget keeps at most ``ReplyLimits/productsPerWidget`` products and the reply at most
/// ``ReplyLimits/productsPerReply``. Each is reported as a ``DecodingNotice/Kind/limitReached`` notice
/// (a negative count as ``DecodingNotice/Kind/skippedSource``) with the JSON path, never an error.
///
/// ## Cost
/// Decoding is linear in the reply's bytes whatever its shape. Several dynamic items may name the same
/// source; each reads its list from the start, as rule 2 says, but the list is read once per block: a
/// position that an earlier item of the block examined is not examined again (with elimination it
/// would be left out again; without, its product is the one already made). Each product passed over is
/// reported once per block, and a report lists at most ``RecoKit/DecodingReport/mostListed`` failures
/// and as many notices, counting the rest (``RecoKit/DecodingReport/unlistedNotices``). Without
/// elimination, items that share a list show its products once each, as the vendor's library does: the
/// products shown are bounded by ``ReplyLimits/productsPerWidget`` and ``ReplyLimits/productsPerReply``.
///
/// ## Reported, never fatal
/// In ``Recommendations/report``:
/// - an item of another type (`sendBannerDetails`, …) or without a type: ``DecodingNotice/Kind/skippedItem``;
/// - a block with no products after assembly: ``DecodingNotice/Kind/emptyWidget``;
/// - a product left out by elimination, or a repeated static item: ``DecodingNotice/Kind/duplicateEliminated``;
/// - a source with a count but no products, an unreadable count, or a list no dynamic item asks for:
///   ``DecodingNotice/Kind/skippedSource``; an unknown elimination mode: ``DecodingNotice/Kind/unknownElimination``;
/// - a product that cannot be a ``RawProduct``: a ``ProductFailure``.
///
/// `responses` that is empty, or holds only empty arrays (no campaign answered the event), is a normal
/// reply: no widgets and one ``DecodingNotice/Kind/noBlocks`` notice. A reply without a `responses` key
/// is not a recommendation reply and is an error, as is an envelope of the wrong shape. A malformed
/// block (no `instanceId` or `actionId`, a value of the wrong type, invalid JSON inside `dynamicItems`)
/// does not cost the reply its other blocks: it is skipped and reported as
/// ``DecodingNotice/Kind/invalidBlock``, whose ``DecodingNotice/cause`` is the typed error with its path
/// (and line and column, for JSON inside a string).
///
/// ```swift
/// let reply = try SegmentifyRecommendations.decode(data, language: "TR")
/// for widget in reply.widgets { print(widget.instanceId, widget.title, widget.products.map(\.productId)) }
/// let shoes = reply.decoded(as: Shoe.self)      // your model; failures reported with their paths
/// ```
public enum SegmentifyRecommendations {
    /// Decodes the bytes of a Segmentify reply.
    /// - Parameters:
    ///   - language: the request's language (`"TR"`, `"EN"`, …), choosing titles from
    ///     `notificationTitleMap`; nil keeps `notificationTitle`.
    ///   - limits: how many products and how large an `itemCount` the reply may bring (see "Limits").
    /// - Throws: ``PayloadError``: `invalidJSON` with line and column; `vendorError` when `statusCode`
    ///   is not `SUCCESS` (see ``SegmentifyStatus``); `missingKey` or `typeMismatch` with the JSON path
    ///   of a malformed envelope. A malformed block is reported, not thrown.
    public static func decode(_ data: Data, language: String? = nil, limits: ReplyLimits = .default) throws(PayloadError) -> Recommendations<RawProduct> {
        // Read in place: products are made only when assembly keeps them.
        guard let tape = try JSONTape.parse(data, limits: limits.json) else {
            return try decode(JSONValue(parsing: data, limits: limits.json), language: language, limits: limits)
        }
        return try decode(node: tape.root, language: language, limits: limits)
    }

    /// Decodes a Segmentify reply already parsed. See the `Data` overload.
    public static func decode(_ json: JSONValue, language: String? = nil, limits: ReplyLimits = .default) throws(PayloadError) -> Recommendations<RawProduct> {
        try decode(node: json, language: language, limits: limits)
    }

    /// Decodes the bytes of a Segmentify reply as ``decode(_:language:limits:)-(Data,_,_)`` does, and adds
    /// what decoding examined and made to `work` (for the tests and fuzz targets that check its cost).
    @_spi(DecodingWork)
    public static func decode(_ data: Data, language: String? = nil, limits: ReplyLimits = .default,
                              work: inout DecodingWork) throws(PayloadError) -> Recommendations<RawProduct> {
        guard let tape = try JSONTape.parse(data, limits: limits.json) else {
            return try decode(node: JSONValue(parsing: data, limits: limits.json), language: language, limits: limits, work: &work)
        }
        return try decode(node: tape.root, language: language, limits: limits, work: &work)
    }

    /// Decodes a reply from a tree or a tape.
    static func decode<Node: JSONNode>(node json: Node, language: String?, limits: ReplyLimits) throws(PayloadError) -> Recommendations<RawProduct> {
        var work = DecodingWork()
        return try decode(node: json, language: language, limits: limits, work: &work)
    }

    /// Decodes a reply from a tree or a tape, counting what it examines and makes in `work`.
    static func decode<Node: JSONNode>(node json: Node, language: String?, limits: ReplyLimits,
                                       work: inout DecodingWork) throws(PayloadError) -> Recommendations<RawProduct> {
        try SegmentifyStatus.check(node: json)
        let responsesPath = JSONPath.root.appending(key: "responses")
        guard let responses = json["responses"] else { throw .missingKey("responses", at: .root) }
        guard let groups = responses.nodeElements else {
            throw .typeMismatch(expected: "an array of response arrays", found: responses.kindPlaceholder, at: responsesPath)
        }
        var widgets: [Widget<RawProduct>] = []
        var report = DecodingReport()
        var assembly = BlockAssembly(limits: limits)
        var itemCount = 0
        for (groupIndex, group) in groups.enumerated() {
            let groupPath = responsesPath.appending(index: groupIndex)
            guard let items = group.nodeElements else {
                throw .typeMismatch(expected: "an array of response items", found: group.kindPlaceholder, at: groupPath)
            }
            itemCount += items.count
            work.examined += items.count
            for (itemIndex, item) in items.enumerated() {
                let itemPath = groupPath.appending(index: itemIndex)
                guard item.isObject else {
                    let error = PayloadError.typeMismatch(expected: "a response item object", found: item.kindPlaceholder, at: itemPath)
                    report.add(DecodingNotice(.invalidBlock, at: itemPath, "a response item that is not an object is skipped: \(error.message)", cause: error))
                    continue
                }
                guard let type = item["type"]?.stringValue else {
                    report.add(DecodingNotice(.skippedItem, at: itemPath, "a response item without a type string is not a recommendation block"))
                    continue
                }
                guard type == "recommendProducts" else {
                    report.add(DecodingNotice(.skippedItem, at: itemPath, "a \(type) item is not a recommendation block"))
                    continue
                }
                let block: SegmentifyBlock<Node>
                do {
                    block = try SegmentifyBlock(item: itemPath, params: item["params"], language: language, limits: limits, work: &work)
                } catch {
                    report.add(DecodingNotice(.invalidBlock, at: itemPath, "the block is skipped: \(error)", cause: error))
                    continue
                }
                report.merge(block.report)
                let products = assembly.assemble(block, report: &report)
                if products.isEmpty {
                    report.add(DecodingNotice(.emptyWidget, at: itemPath, "\(block.instanceId) has no products to show, so it is not shown"))
                    continue
                }
                widgets.append(Widget(vendor: .segmentify, instanceId: block.instanceId, interactionId: block.interactionId, title: block.title, rawProducts: products, path: itemPath))
            }
        }
        if itemCount == 0 {
            report.add(DecodingNotice(.noBlocks, at: responsesPath, "the reply holds no response items: no campaign answered the event"))
        }
        work.examined += assembly.work.examined
        work.decoded += assembly.work.decoded
        return Recommendations(widgets: widgets, report: report)
    }
}
