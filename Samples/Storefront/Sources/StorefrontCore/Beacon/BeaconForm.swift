import Foundation
import Hummingbird

/// What a widget-view beacon (`POST /beacon`) names: the block's instance and interaction ids, read from
/// `application/x-www-form-urlencoded` text in the query and the body (the body wins).
///
/// A pure function of the request's text, so it can be fuzzed alone: it refuses input over
/// ``maxBodyBytes`` or ``maxPairs`` pairs, an id over ``maxFieldBytes`` bytes, a form Hummingbird's
/// `URLEncodedFormDecoder` refuses (bad percent-encoding, a key given twice, a field that is not a plain
/// value), and a missing or empty `instanceId` or a missing `interactionId`.
public struct BeaconForm: Sendable, Hashable {
    /// The block's instance id.
    public var instanceId: String
    /// The block's interaction id.
    public var interactionId: String

    /// Why a beacon's form was refused.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Hashable { case tooLarge, missingField, malformed }
        private let kind: Kind

        /// The body or query is over the size or pair limits.
        public static let tooLarge = Refusal(kind: .tooLarge)
        /// `instanceId` (non-empty) or `interactionId` is missing.
        public static let missingField = Refusal(kind: .missingField)
        /// A needed field is not valid percent-encoded UTF-8, or too long.
        public static let malformed = Refusal(kind: .malformed)

        /// What was wrong, in a sentence fit for a 400 page.
        public var description: String {
            switch kind {
            case .tooLarge: "the form is too large"
            case .missingField: "instanceId and interactionId are required"
            case .malformed: "instanceId or interactionId is malformed or too long"
            }
        }
    }

    /// The most body bytes read.
    public static let maxBodyBytes = 4096
    /// The most `key=value` pairs read from the query and the body together.
    public static let maxPairs = 32
    /// The longest id accepted, in UTF-8 bytes after decoding.
    public static let maxFieldBytes = 256

    /// An already-read form.
    public init(instanceId: String, interactionId: String) {
        self.instanceId = instanceId
        self.interactionId = interactionId
    }

    /// Reads the ids from a query string (without `?`) and a body, each decoded by Hummingbird's
    /// `URLEncodedFormDecoder` once the bounds above are checked on the raw text.
    public static func parse(query: String?, body: [UInt8]) -> Result<BeaconForm, Refusal> {
        let query = query ?? ""
        guard body.count <= maxBodyBytes, query.utf8.count <= maxBodyBytes,
              pairCount(query.utf8) + pairCount(body) <= maxPairs else { return .failure(.tooLarge) }
        // Hummingbird's decoder decodes a bad escape to U+FFFD; Foundation's check refuses it (and any bad `%`).
        guard let bodyText = String(validating: body, as: UTF8.self),
              query.removingPercentEncoding != nil, bodyText.removingPercentEncoding != nil,
              let fromQuery = fields(query), let fromBody = fields(bodyText) else { return .failure(.malformed) }
        guard let instanceId = fromBody.instanceId ?? fromQuery.instanceId,
              let interactionId = fromBody.interactionId ?? fromQuery.interactionId else { return .failure(.missingField) }
        guard instanceId.utf8.count <= maxFieldBytes, interactionId.utf8.count <= maxFieldBytes else { return .failure(.malformed) }
        guard !instanceId.isEmpty else { return .failure(.missingField) }
        return .success(BeaconForm(instanceId: instanceId, interactionId: interactionId))
    }

    /// The two fields as a form names them; any others are ignored.
    private struct Fields: Decodable {
        var instanceId: String?
        var interactionId: String?
    }

    /// The fields of one form text; nil when Hummingbird's decoder refuses it (a bad escape, a key given
    /// twice, a field that is not a plain value).
    private static func fields(_ text: String) -> Fields? {
        guard !text.isEmpty else { return Fields() }
        return try? URLEncodedFormDecoder().decode(Fields.self, from: text)
    }

    /// How many `&`-separated pairs a form text holds (an empty text holds none).
    private static func pairCount<Bytes: Sequence>(_ bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        var count = 0
        var empty = true
        for byte in bytes {
            empty = false
            if byte == UInt8(ascii: "&") { count += 1 }
        }
        return empty ? 0 : count + 1
    }
}
