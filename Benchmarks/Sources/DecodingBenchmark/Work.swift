import Foundation
@_spi(JSONTape) import RecoKit
import RecoVendors

/// The decoding work each measured case does on the same bytes, by name; the same names are measured
/// by time and by instruction count.
enum Work: String, CaseIterable {
    /// RecoKit's parse alone: the bytes indexed into a tape (what decoding reads from).
    case tapeParse = "parse (tape)"
    /// The former parse: the bytes into a `JSONValue` tree.
    case treeParse = "parse (JSONValue tree, before)"
    /// Widgets of the caller's model from the bytes, read in place (what `decode(data)` does now).
    case model = "into ShopProduct (tape)"
    /// Widgets of the caller's model through a `JSONValue` tree (the former path).
    case treeModel = "into ShopProduct (tree, before)"
    /// `JSONDecoder` into plain structs.
    case jsonDecoder = "JSONDecoder into plain structs"

    /// A short name for the command line.
    var argument: String {
        switch self {
        case .tapeParse: "tape-parse"
        case .treeParse: "tree-parse"
        case .model: "model"
        case .treeModel: "tree-model"
        case .jsonDecoder: "jsondecoder"
        }
    }

    init?(argument: String) {
        guard let work = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
        self = work
    }

    /// Does the work once; returns a count that depends on the result, so nothing is optimised away.
    func run(_ data: Data) throws -> Int {
        switch self {
        case .tapeParse:
            return try JSONTape.parse(data)!.tokenCount
        case .treeParse:
            return try JSONValue(parsing: data).arrayValue?.count ?? 1
        case .model:
            return try SegmentifyRecommendations.decode(data).decoded(as: ShopProduct.self).widgets.count
        case .treeModel:
            return try SegmentifyRecommendations.decode(JSONValue(parsing: data)).decoded(as: ShopProduct.self).widgets.count
        case .jsonDecoder:
            return try JSONDecoder().decode(PlainEnvelope.self, from: data).responses.count
        }
    }
}

/// The region callgrind counts (`--toggle-collect=*recokitMeasuredRegion*`): `repeats` runs of `work`.
@inline(never)
func recokitMeasuredRegion(_ work: Work, _ data: Data, repeats: Int) throws -> Int {
    var total = 0
    for _ in 0..<repeats { total &+= try work.run(data) }
    return total
}
