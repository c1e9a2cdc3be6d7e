/// A Reteno recommendation variant id, `r{recomId}v{variantId}` (`r1107v1482`): which recommendation
/// (data source and algorithm) and which of its variants to ask for.
///
/// Copy it from the recommendation's JS snippet in Reteno. Both numbers are positive whole numbers,
/// written without a sign or leading zeros; anything else is rejected when the id is made, so a typo
/// never reaches the network.
///
/// ```swift
/// let variant = try RetenoVariantId("r1107v1482")
/// variant.recomId     // 1107
/// variant.variantId   // 1482
/// ```
public struct RetenoVariantId: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The recommendation's id (the number after `r`).
    public let recomId: Int
    /// The variant's id (the number after `v`).
    public let variantId: Int

    /// Parses `r{recomId}v{variantId}`.
    /// - Throws: ``RetenoError`` naming the bad value and the expected form.
    public init(_ text: String) throws(RetenoError) {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "r"), let v = bytes.firstIndex(of: UInt8(ascii: "v")),
            let recom = Self.positiveNumber(bytes[1..<v]), let variant = Self.positiveNumber(bytes[(v + 1)...])
        else { throw .invalidVariantId(text) }
        self.recomId = recom
        self.variantId = variant
    }

    /// Makes the id from its two numbers.
    /// - Throws: ``RetenoError`` when either is not positive.
    public init(recomId: Int, variantId: Int) throws(RetenoError) {
        guard recomId > 0, variantId > 0 else { throw .invalidVariantId("r\(recomId)v\(variantId)") }
        self.recomId = recomId
        self.variantId = variantId
    }

    /// The id as Reteno writes it: `r1107v1482`.
    public var description: String { "r\(recomId)v\(variantId)" }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Digits only, no leading zero, at most 18 digits (so it fits an `Int`), not zero.
    private static func positiveNumber(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18, digits.first != UInt8(ascii: "0"),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
