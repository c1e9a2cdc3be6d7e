import Foundation
import RecoVendors

/// The sample payloads in `Samples/Payloads/`, found from this file's location.
enum SamplePayload {
    /// The package root: the nearest folder above this file that holds `Package.swift`.
    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The bytes of `Samples/Payloads/<name>`.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: packageRoot.appendingPathComponent("Samples/Payloads").appendingPathComponent(name))
    }
}

/// Builds Segmentify replies for tests, with products `{"productId": id, "name": "Product id"}`.
enum ReplyBuilder {
    /// One dynamic item and its product list (nil: no list in `recommendedProducts`).
    struct Source: Sendable {
        var source: String
        var timeFrame: String? = "TODAY"
        var count: JSONValue
        var ids: [String]?
    }

    /// One `recommendProducts` item.
    struct Block: Sendable {
        var instanceId = "scn_1"
        var elimination: String? = nil
        var staticIds: [String]? = nil
        var sources: [Source] = []
        var v3 = false
    }

    static func product(_ id: String) -> JSONValue { ["productId": .string(id), "name": .string("Product \(id)")] }

    static func item(_ block: Block) -> JSONValue {
        var dynamic: [JSONValue] = []
        var lists: [String: JSONValue] = [:]
        var v3Lists: [JSONValue] = [.array((block.staticIds ?? []).map(product))]
        if let staticIds = block.staticIds { lists["RECOMMENDATION_SOURCE_STATIC_ITEMS"] = .array(staticIds.map(product)) }
        for source in block.sources {
            var entry: [String: JSONValue] = ["recommendationSource": .string(source.source), "itemCount": source.count]
            var key = source.source
            if let timeFrame = source.timeFrame {
                entry["timeFrame"] = .string(timeFrame)
                entry["score"] = "NONE"
                key += "|\(timeFrame)|NONE"
            }
            dynamic.append(.object(entry))
            if let ids = source.ids { lists[key] = .array(ids.map(product)) }
            v3Lists.append(source.ids.map { .array($0.map(product)) } ?? .null)
        }
        var params: [String: JSONValue] = [
            "instanceId": .string(block.instanceId),
            "actionId": .string("act_" + block.instanceId),
            "notificationTitle": .string("Title of \(block.instanceId)"),
            "dynamicItems": .string(JSONWriter.string(.array(dynamic), style: .compact)),
            "staticItems": "[]",
            "recommendedProducts": block.v3 ? .array(v3Lists) : .object(lists),
        ]
        if let elimination = block.elimination { params["elimination"] = .string(elimination) }
        return ["type": "recommendProducts", "params": .object(params)]
    }

    /// A reply with one inner `responses` array per element of `groups`.
    static func reply(_ groups: [[Block]]) -> JSONValue {
        ["statusCode": "SUCCESS", "responses": .array(groups.map { .array($0.map(item)) })]
    }

    /// The product ids of every widget, by instanceId.
    static func ids(_ reply: Recommendations<RawProduct>) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: reply.widgets.map { ($0.instanceId, $0.products.map(\.productId)) })
    }
}
