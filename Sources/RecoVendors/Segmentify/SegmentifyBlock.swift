import Foundation
@_spi(JSONTape) import RecoKit

/// The `params` of one Segmentify `recommendProducts` item, read and checked, ready for
/// ``BlockAssembly``. Its product lists are nodes of the reply (a tree, or a tape read in place), so a
/// product costs nothing until assembly keeps it.
struct SegmentifyBlock<Node: JSONNode>: Sendable {
    /// A list of products as the vendor sent it, with where it is.
    struct ProductList: Sendable {
        var elements: [Node]
        var path: JSONPath
    }

    /// A dynamic item and the products it was answered with: the index of its list in ``lists`` (nil when
    /// the reply holds none for it). Items that name the same source share one list.
    struct Source: Sendable {
        var item: SegmentifyDynamicItem
        var list: Int?
    }

    var instanceId: String
    /// `params.actionId`, reported with impressions and widget views.
    var interactionId: String
    /// `notificationTitle`, or the `notificationTitleMap` entry for the requested language.
    var title: String
    var elimination: SegmentifyElimination
    /// `recommendedProducts["RECOMMENDATION_SOURCE_STATIC_ITEMS"]`, or element 0 of the v3 array form.
    var staticProducts: ProductList?
    var sources: [Source]
    /// The product lists the dynamic items read, each once however many items name its key.
    var lists: [ProductList]
    /// Things noticed while reading the block (lists nobody asks for, unreadable counts, unknown modes).
    var report = DecodingReport()
    /// Where the block's item is.
    var path: JSONPath

    static var staticKey: String { "RECOMMENDATION_SOURCE_STATIC_ITEMS" }

    /// Reads the `params` of the item at `path`.
    /// - Throws: ``PayloadError`` with the JSON path for a missing `instanceId` or `actionId`, a value of
    ///   the wrong type, or invalid JSON inside `dynamicItems`, `staticItems` or `notificationTitleMap`.
    init(item path: JSONPath, params node: Node?, language: String?, limits: ReplyLimits = .default,
         work: inout DecodingWork) throws(PayloadError) {
        let paramsPath = path.appending(key: "params")
        guard let node else { throw .missingKey("params", at: path) }
        guard node.isObject else { throw .typeMismatch(expected: "an object", found: node.kindPlaceholder, at: paramsPath) }
        // Each member is looked up in the node and made a tree only when it is a scalar read here (a
        // repeated key gives its last value, as in a tree); the JSON inside strings is read as a node of
        // the same kind, so a tape's block makes no tree for it.
        self.path = path
        instanceId = try Self.requiredText("instanceId", in: node, at: paramsPath)
        interactionId = try Self.requiredText("actionId", in: node, at: paramsPath)
        title = try Self.title(node["notificationTitle"]?.tree, map: node["notificationTitleMap"]?.tree, at: paramsPath, language: language)

        let eliminationPath = paramsPath.appending(key: "elimination")
        switch node["elimination"]?.tree {
        case nil, .null?: elimination = .none
        case .string(let mode)?: elimination = SegmentifyElimination(mode)
        case let other?: throw .typeMismatch(expected: "an elimination mode string", found: other, at: eliminationPath)
        }
        if case .unknown(let mode) = elimination {
            report.add(DecodingNotice(.unknownElimination, at: eliminationPath, "\(instanceId) has the elimination mode \"\(mode)\", which is not known; nothing is eliminated"))
        }

        // dynamicItems: JSON inside a string (or, leniently, the array itself).
        var items: [SegmentifyDynamicItem] = []
        if let (list, listPath) = try Self.embeddedJSON(node["dynamicItems"], at: paramsPath.appending(key: "dynamicItems")) {
            guard let entries = list.nodeElements else { throw .typeMismatch(expected: "an array of dynamic items", found: list.kindPlaceholder, at: listPath) }
            items.reserveCapacity(entries.count)
            work.examined += entries.count
            for (index, entry) in entries.enumerated() {
                items.append(try SegmentifyDynamicItem(entry, at: listPath.appending(index: index), limits: limits))
            }
        }
        // staticItems: checked, not needed; the static products themselves come in recommendedProducts.
        if let (list, listPath) = try Self.embeddedJSON(node["staticItems"], at: paramsPath.appending(key: "staticItems")) {
            guard list.nodeElements != nil else { throw .typeMismatch(expected: "an array of static items", found: list.kindPlaceholder, at: listPath) }
        }

        let productsPath = paramsPath.appending(key: "recommendedProducts")
        let products = node["recommendedProducts"]
        var lists: [ProductList] = []
        if products == nil || products!.isNull {
            staticProducts = nil
            sources = items.map { Source(item: $0, list: nil) }
        } else if let members = products?.nodeMembers {
            // The object read once, and each key's list made once, however many items name it: a lookup
            // and a list per item made a reply of many items quadratic.
            work.examined += members.count
            staticProducts = try Self.list(members[Self.staticKey], at: productsPath.appending(key: Self.staticKey), work: &work)
            var listOfKey: [String: Int?] = [:]
            var sources: [Source] = []
            sources.reserveCapacity(items.count)
            for item in items {
                if let known = listOfKey[item.key] {
                    sources.append(Source(item: item, list: known))
                    continue
                }
                let list = try Self.list(members[item.key], at: productsPath.appending(key: item.key), work: &work)
                let index = list.map { list -> Int in
                    lists.append(list)
                    return lists.count - 1
                }
                listOfKey[item.key] = index
                sources.append(Source(item: item, list: index))
            }
            self.sources = sources
            // The lists nobody asks for, each once, in key order.
            for key in members.keys.sorted() where key != Self.staticKey && listOfKey.index(forKey: key) == nil {
                report.add(DecodingNotice(.skippedSource, at: productsPath.appending(key: key), "\(instanceId) was sent products under \"\(key)\", but no dynamic item asks for them"))
            }
        } else if let all = products?.nodeElements {
            // v3: element 0 the static items, element i the products of dynamic item i-1.
            work.examined += all.count
            staticProducts = try all.isEmpty ? nil : Self.list(all[0], at: productsPath.appending(index: 0), work: &work)
            var sources: [Source] = []
            sources.reserveCapacity(items.count)
            for (offset, item) in items.enumerated() {
                let index = offset + 1
                let list = index < all.count ? try Self.list(all[index], at: productsPath.appending(index: index), work: &work) : nil
                if let list { lists.append(list) }
                sources.append(Source(item: item, list: list == nil ? nil : lists.count - 1))
            }
            self.sources = sources
            if all.count > items.count + 1 {
                for index in (items.count + 1)..<all.count {
                    report.add(DecodingNotice(.skippedSource, at: productsPath.appending(index: index), "\(instanceId) was sent a product list at index \(index), but has only \(items.count) dynamic items"))
                }
            }
        } else {
            throw .typeMismatch(expected: "an object or an array of product lists", found: products?.kindPlaceholder, at: productsPath)
        }
        self.lists = lists

        for source in sources where source.item.itemCount > 0 && source.list == nil {
            report.add(DecodingNotice(.skippedSource, at: source.item.path, "\(instanceId) has no products for \"\(source.item.key)\"; the source is skipped"))
        }
        for source in sources {
            let countPath = source.item.path.appending(key: "itemCount")
            switch source.item.itemCountNote {
            case nil: break
            case .unreadable?:
                report.add(DecodingNotice(.skippedSource, at: countPath, "\(instanceId) has an itemCount for \"\(source.item.key)\" that is not a whole number; the source is skipped"))
            case .negative(let text)?:
                report.add(DecodingNotice(.skippedSource, at: countPath, "\(instanceId) has a negative itemCount (\(Self.excerpt(text))) for \"\(source.item.key)\"; the source is skipped"))
            case .clamped(let text)?:
                report.add(DecodingNotice(.limitReached, at: countPath, "\(instanceId) asks for \(Self.excerpt(text)) products from \"\(source.item.key)\"; taken as the limit, \(limits.itemCount) (ReplyLimits.itemCount)"))
            }
        }
    }

    /// A vendor's number as text, cut to 40 characters so a notice stays short.
    private static func excerpt(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(39)) + "…" : text
    }

    private static func list(_ value: Node?, at path: JSONPath, work: inout DecodingWork) throws(PayloadError) -> ProductList? {
        guard let value, !value.isNull else { return nil }
        guard let elements = value.nodeElements else { throw .typeMismatch(expected: "an array of products", found: value.kindPlaceholder, at: path) }
        work.examined += elements.count
        return ProductList(elements: elements, path: path)
    }

    /// A value Segmentify sends as JSON inside a string (`dynamicItems`, `staticItems`), as
    /// ``JSONValue/embeddedJSON(_:at:)`` reads it, parsed into a node of the same kind as the reply's.
    private static func embeddedJSON(_ value: Node?, at path: JSONPath) throws(PayloadError) -> (value: Node, path: JSONPath)? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue else { return (value, path) }
        if text.allSatisfy(\.isWhitespace) { return nil }
        let inner = path.appendingEmbeddedJSON()
        do {
            return (try Node.parsing(embedded: text), inner)
        } catch {
            throw error.nested(under: inner)
        }
    }

    private static func requiredText(_ key: String, in params: Node, at path: JSONPath) throws(PayloadError) -> String {
        switch params[key]?.tree {
        case .string(let text)? where !text.isEmpty: return text
        case .number(let number)?: return number.text
        case .string?: throw .invalidValue("\(key) is an empty string", at: path.appending(key: key))
        case nil, .null?: throw .missingKey(key, at: path)
        case let other?: throw .typeMismatch(expected: "a string", found: other, at: path.appending(key: key))
        }
    }

    /// `notificationTitleMap[language]` when the map has a non-empty entry for the language (exact key
    /// first, then ignoring case: `"EN"` and `"en"`), otherwise `notificationTitle`, otherwise "".
    private static func title(_ notificationTitle: JSONValue?, map: JSONValue?, at path: JSONPath, language: String?) throws(PayloadError) -> String {
        var title = ""
        switch notificationTitle {
        case nil, .null?: break
        case .string(let text)?: title = text
        case let other?: throw .typeMismatch(expected: "a string", found: other, at: path.appending(key: "notificationTitle"))
        }
        guard let (map, mapPath) = try JSONValue.embeddedJSON(map, at: path.appending(key: "notificationTitleMap")) else { return title }
        guard case .object(let titles) = map else { throw .typeMismatch(expected: "an object of titles by language", found: map, at: mapPath) }
        guard let language else { return title }
        let key = titles[language] != nil ? language : titles.keys.sorted().first { $0.caseInsensitiveCompare(language) == .orderedSame }
        guard let key, let value = titles[key] else { return title }
        switch value {
        case .string(let text) where !text.isEmpty: return text
        case .string, .null: return title
        default: throw .typeMismatch(expected: "a title string", found: value, at: mapPath.appending(key: key))
        }
    }
}
