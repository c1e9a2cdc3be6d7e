import Foundation
@_spi(JSONTape) import RecoKit

/// Decodes Reteno's getRecoms reply, `{"recoms":[{product},…]}`, into one widget of raw products.
///
/// The widget's vendor is ``Vendor/reteno``; its `instanceId` and `interactionId` are both the
/// variant id (`r1107v1482`), which is what Reteno's recommendation events are reported with. Reteno
/// sends no title, so the widget's title is the one you pass (empty by default). Products keep the
/// server's order, numbered from 1, each with its path (`$.recoms[3]`).
///
/// A product that is not an object or has no usable `productId` does not fail the reply: it is left
/// out and reported as a ``ProductFailure`` (Reteno's own SDK drops such products silently). When no
/// product is left, no widget is returned and the report holds an
/// ``DecodingNotice/Kind/emptyWidget`` notice.
///
/// At most ``ReplyLimits/productsPerWidget`` products are kept (and at most
/// ``ReplyLimits/productsPerReply``); the rest are left out with a ``DecodingNotice/Kind/limitReached``
/// notice at the path of the first one left out.
///
/// The server applies the request's `fields`; to decode into your model, with field selection and
/// filters applied locally as well, use ``Recommendations/decoded(as:fields:filters:)``:
///
/// ```swift
/// let reply = try RetenoRecoms.decode(data, variantId: RetenoVariantId("r1107v1482"), title: "You may also like")
/// let items = reply.decoded(as: Recommendation.self)
/// for failure in items.report.failures { print(failure) }
/// ```
public enum RetenoRecoms {
    /// Decodes the reply's bytes.
    /// - Parameter limits: bounds on the reply's size and shape (``RecoKit/JSONLimits/default`` unless given);
    ///   a reply beyond them is a `limitExceeded` error.
    /// - Throws: ``PayloadError``: invalid JSON (with line and column), a missing `recoms` key, or
    ///   `recoms` that is not an array.
    public static func decode(_ data: Data, variantId: RetenoVariantId, title: String = "", limits: ReplyLimits = .default) throws(PayloadError) -> Recommendations<RawProduct> {
        // Read in place: a product's fields are made only when someone reads them.
        guard let tape = try JSONTape.parse(data, limits: limits.json) else {
            return try decode(JSONValue(parsing: data, limits: limits.json), variantId: variantId, title: title, limits: limits)
        }
        return try decode(node: tape.root, instanceId: variantId.description, title: title, limits: limits)
    }

    /// Decodes an already parsed reply.
    /// - Throws: ``PayloadError``: a missing `recoms` key, or `recoms` that is not an array.
    public static func decode(_ json: JSONValue, variantId: RetenoVariantId, title: String = "", limits: ReplyLimits = .default) throws(PayloadError) -> Recommendations<RawProduct> {
        try decode(json, instanceId: variantId.description, title: title, limits: limits)
    }

    /// Decodes a reply whose widget gets `instanceId` (a variant id, or a placeholder when it is unknown).
    static func decode(_ json: JSONValue, instanceId id: String, title: String, limits: ReplyLimits = .default) throws(PayloadError) -> Recommendations<RawProduct> {
        try decode(node: json, instanceId: id, title: title, limits: limits)
    }

    /// Decodes a reply read as a tree or a tape.
    static func decode<Node: JSONNode>(node json: Node, instanceId id: String, title: String, limits: ReplyLimits = .default) throws(PayloadError) -> Recommendations<RawProduct> {
        guard json.isObject else {
            throw .typeMismatch(expected: "an object with a \"recoms\" array (a Reteno recommendations reply)", found: json.kindPlaceholder, at: .root)
        }
        guard let recoms = json["recoms"] else { throw .missingKey("recoms", at: .root) }
        let recomsPath = JSONPath.root.appending(key: "recoms")
        guard let elements = recoms.nodeElements else {
            throw .typeMismatch(expected: "an array of products", found: recoms.kindPlaceholder, at: recomsPath)
        }
        var products: [(RawProduct, JSONPath)] = []
        var budget = ProductBudget(limits)
        products.reserveCapacity(min(elements.count, budget.widgetCapacity))
        var report = DecodingReport()
        for (index, element) in elements.enumerated() {
            let path = recomsPath.appending(index: index)
            guard budget.admits(products.count, at: path, of: id, report: &report) else { break }
            do {
                products.append((try element.rawProduct(at: .root), path))
                budget.take()
            } catch {
                report.add(ProductFailure(index: index, productId: element["productId"]?.scalarText, instanceId: id, productPath: path, error: error))
            }
        }
        guard !products.isEmpty else {
            let why = elements.isEmpty ? "Reteno sent no products" : "none of its \(elements.count) products could be read"
            report.add(DecodingNotice(.emptyWidget, at: recomsPath, "\(id) has no products to show: \(why)"))
            return Recommendations(widgets: [], report: report)
        }
        let widget = Widget(vendor: .reteno, instanceId: id, interactionId: id, title: title, rawProducts: products, path: recomsPath)
        return Recommendations(widgets: [widget], report: report)
    }
}
