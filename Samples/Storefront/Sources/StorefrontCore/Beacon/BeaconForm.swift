import Foundation

/// What a widget-view beacon (`POST /beacon`) names: the block's instance and interaction ids, read from
/// `application/x-www-form-urlencoded` text in the query and the body (the body wins).
///
/// A pure function of the request's text, so it can be fuzzed alone: it refuses input over
/// ``maxBodyBytes`` or ``maxPairs`` pairs, an id over ``maxFieldBytes`` bytes, a form that is not valid
/// (a bad percent escape, text that is not UTF-8 once decoded, `instanceId` or `interactionId` given
/// twice), and a missing or empty `instanceId` or a missing `interactionId`. Other keys are ignored.
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

    /// Reads the ids from a query string (without `?`) and a body, once the bounds above are checked on
    /// the raw text.
    public static func parse(query: String?, body: [UInt8]) -> Result<BeaconForm, Refusal> {
        let query = query ?? ""
        guard body.count <= maxBodyBytes, query.utf8.count <= maxBodyBytes,
              pairCount(query.utf8) + pairCount(body) <= maxPairs else { return .failure(.tooLarge) }
        guard let bodyText = String(validating: body, as: UTF8.self),
              let fromQuery = fields(query), let fromBody = fields(bodyText) else { return .failure(.malformed) }
        guard let instanceId = fromBody.instanceId ?? fromQuery.instanceId,
              let interactionId = fromBody.interactionId ?? fromQuery.interactionId else { return .failure(.missingField) }
        guard instanceId.utf8.count <= maxFieldBytes, interactionId.utf8.count <= maxFieldBytes else { return .failure(.malformed) }
        guard !instanceId.isEmpty else { return .failure(.missingField) }
        return .success(BeaconForm(instanceId: instanceId, interactionId: interactionId))
    }

    /// The two fields a form names; any others are ignored.
    private struct Fields {
        var instanceId: String?
        var interactionId: String?
    }

    /// The fields of one `application/x-www-form-urlencoded` text: `&`-separated `key=value` pairs,
    /// `+` for a space, `%XX` escapes. Nil when a pair's key or value is not valid (a bad escape, bytes
    /// that are not UTF-8 once decoded) or when one of the two fields is given twice.
    private static func fields(_ text: String) -> Fields? {
        var fields = Fields()
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = formDecoded(parts[0]), let value = formDecoded(parts.count > 1 ? parts[1] : "") else { return nil }
            switch key {
            case "instanceId":
                guard fields.instanceId == nil else { return nil }
                fields.instanceId = value
            case "interactionId":
                guard fields.interactionId == nil else { return nil }
                fields.interactionId = value
            default:
                continue
            }
        }
        return fields
    }

    /// One key or value decoded: `+` is a space, then percent escapes; nil for a bad escape or bytes
    /// that are not UTF-8.
    private static func formDecoded(_ text: Substring) -> String? {
        String(text.replacingOccurrences(of: "+", with: " ")).removingPercentEncoding
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
