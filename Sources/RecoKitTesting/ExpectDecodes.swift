import Foundation
import RecoVendors
import Testing

/// Decodes a vendor payload into your model and records a test issue listing every product that did
/// not decode, each with its JSON path and reason. For Swift Testing.
///
/// The products that did decode are returned, so the test can go on checking them. A payload that
/// cannot be read at all (invalid JSON, a shape no vendor sends, a vendor's error reply) throws its
/// ``PayloadError``, which fails the test with what and where.
///
/// ```swift
/// import RecoKitTesting
/// import Testing
///
/// struct Recommendation: RecommendableProduct {
///     let productId: String
///     let name: String
/// }
///
/// @Test func ourModelReadsTheFeed() throws {
///     let data = try SamplePayloads.data(named: "reteno-recoms-full")
///     let reply = try expectDecodes(Recommendation.self, from: data, vendor: .reteno)
///     #expect(reply.widgets.first?.products.count == 10)
/// }
/// ```
/// A failing payload records one issue such as:
/// ```
/// 2 products did not decode into Recommendation:
///   product 3 (MH07) of r1107v1482: missing required key "name" at $.recoms[3].name
///   product 5 (24-MB02) of r1107v1482: expected a number, found the string "n/a" at $.recoms[5].price
/// ```
/// - Parameters:
///   - vendor: who sent the payload; nil to recognise it from its shape (see ``VendorPayloads``).
///   - language: the language for titles when the vendor sends several.
///   - variantId: the Reteno variant the payload answers (the widget's instanceId).
///   - fields, filters: applied before your model is decoded, as in
///     ``Recommendations/decoded(as:fields:filters:)``.
@discardableResult
public func expectDecodes<T: RecommendableProduct>(
    _ type: T.Type, from data: Data, vendor: Vendor? = nil, language: String? = nil, variantId: RetenoVariantId? = nil,
    fields: FieldSelection = .all, filters: [ProductFilter] = [], sourceLocation: SourceLocation = #_sourceLocation
) throws -> Recommendations<T> {
    let raw = try VendorPayloads.decode(data, vendor: vendor, language: language, variantId: variantId)
    return expectDecodes(type, from: raw, fields: fields, filters: filters, sourceLocation: sourceLocation)
}

/// Decodes one of RecoKit's sample payloads (see ``SamplePayloads``) into your model, recording an
/// issue that lists every product that did not decode.
@discardableResult
public func expectDecodes<T: RecommendableProduct>(
    _ type: T.Type, fromSample name: String, vendor: Vendor? = nil, language: String? = nil, variantId: RetenoVariantId? = nil,
    fields: FieldSelection = .all, filters: [ProductFilter] = [], sourceLocation: SourceLocation = #_sourceLocation
) throws -> Recommendations<T> {
    let data = try SamplePayloads.data(named: name)
    return try expectDecodes(type, from: data, vendor: vendor, language: language, variantId: variantId, fields: fields, filters: filters, sourceLocation: sourceLocation)
}

/// Decodes already decoded raw widgets (from any vendor decoder) into your model, recording an issue
/// that lists every product that did not decode, including those the vendor decoder already reported.
@discardableResult
public func expectDecodes<T: RecommendableProduct>(
    _ type: T.Type, from raw: Recommendations<RawProduct>, fields: FieldSelection = .all, filters: [ProductFilter] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> Recommendations<T> {
    let decoded = raw.decoded(as: type, fields: fields, filters: filters)
    let failures = decoded.report.failures
    if !failures.isEmpty {
        let noun = failures.count == 1 ? "product did" : "products did"
        let lines = failures.map { "  \($0)" }.joined(separator: "\n")
        Issue.record(Comment(rawValue: "\(failures.count) \(noun) not decode into \(T.self):\n\(lines)"), sourceLocation: sourceLocation)
    }
    return decoded
}
