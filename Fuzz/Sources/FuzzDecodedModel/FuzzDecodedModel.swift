import Foundation
import FuzzSupport
@_spi(JSONTape) import RecoKit
import RecoVendors

/// A caller's model with every kind of field a decoder must refuse cleanly: optional, whole and
/// decimal numbers of several types, nested objects and arrays, URLs and flags.
struct Listing: RecommendableProduct {
    struct Price: Decodable, Sendable {
        let amount: Decimal
        let previous: Decimal?
        let currency: String?
    }
    struct Params: Decodable, Sendable {
        let color: String?
        let sizes: [Int]?
        let ratings: [String: Double]?
    }
    let productId: String
    let name: String?
    let price: Decimal?
    let oldPrice: Double?
    let stock: Int?
    let quantity: Int8?
    let count: UInt?
    let rating: Float?
    let url: URL?
    let inStock: Bool?
    let category: [String]?
    let params: Params?
    let pricing: Price?
    let nested: [[Int?]]?
}

/// A model whose numeric fields are required, so that every mismatch is a failure to report.
struct StrictListing: RecommendableProduct {
    let productId: String
    let price: Decimal
    let stock: Int
    let score: Double
}

private let filters = [ProductFilter(name: "brand", values: ["Ea", "1"]), ProductFilter(name: "price", values: ["10"])]

/// Raw products decoded into callers' models through `decoded(as:)`, and any JSON decoded straight into
/// the model: a product that does not fit is reported, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodedModel(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = FuzzInput(pointer, size).data
    guard let json = try? JSONValue(parsing: data) else { return 0 }
    _ = try? json.decode(Listing.self)
    _ = try? json.decode([StrictListing].self)
    // Straight from the tape: the same model or the same error and coding path as from the tree.
    if let tape = try? JSONTape.parse(data) {
        fuzzCheck(outcome { try tape.root.decode(Listing.self) } == outcome { try json.decode(Listing.self) }, "Listing from the tape differs from the tree")
        fuzzCheck(outcome { try tape.root.decode([StrictListing].self) } == outcome { try json.decode([StrictListing].self) }, "[StrictListing] from the tape differs")
    }
    if let reply = try? VendorPayloads.decode(data) {
        // The bytes' products (read in place) decode as the tree's do.
        let fromTape = reply.decoded(as: StrictListing.self)
        if let tree = try? VendorPayloads.decode(json) {
            let fromTree = tree.decoded(as: StrictListing.self)
            fuzzCheck(fromTape.report.description == fromTree.report.description, "the reports from the tape and the tree differ")
            fuzzCheck(fromTape.widgets.map { "\($0.products)" } == fromTree.widgets.map { "\($0.products)" }, "the products from the tape and the tree differ")
        }
    }
    if let reply = try? VendorPayloads.decode(json) {
        let listings = reply.decoded(as: Listing.self)
        _ = listings.report.description
        _ = reply.decoded(as: StrictListing.self, fields: FieldSelection(fields: ["price", "stock", "score", "params.color"]), filters: filters)
    }
    return 0
}

/// A decoding's value or its error, with the coding path, as text.
private func outcome<T>(_ body: () throws -> T) -> String {
    do { return "value \(try body())" } catch let error as DecodingError {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            return "error \(JSONPath(codingPath: context.codingPath)) \(context.debugDescription)"
        @unknown default: return "error \(error)"
        }
    } catch { return "error \(error)" }
}
