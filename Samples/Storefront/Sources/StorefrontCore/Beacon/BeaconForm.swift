import Foundation

/// What a widget-view beacon (`POST /beacon`) names: the block's instance and interaction ids, read from
/// `application/x-www-form-urlencoded` text in the query and the body (the body wins).
///
/// A pure function of the request's text, so it can be fuzzed alone: it refuses input over
/// ``maxBodyBytes`` or ``maxPairs`` pairs, an id over ``maxFieldBytes`` bytes, bad percent-encoding in a
/// field it needs, and a missing or empty `instanceId` or a missing `interactionId`.
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

    /// Reads the ids from a query string (without `?`) and a body.
    public static func parse(query: String?, body: [UInt8]) -> Result<BeaconForm, Refusal> {
        guard body.count <= maxBodyBytes, (query?.utf8.count ?? 0) <= maxBodyBytes else { return .failure(.tooLarge) }
        let pairs = Self.pairs(Array((query ?? "").utf8)) + Self.pairs(body)
        guard pairs.count <= maxPairs else { return .failure(.tooLarge) }
        var instance: ArraySlice<UInt8>?
        var interaction: ArraySlice<UInt8>?
        for (key, value) in pairs {
            switch Self.decode(key) {
            case "instanceId"?: instance = value
            case "interactionId"?: interaction = value
            default: continue
            }
        }
        guard let instance, let interaction else { return .failure(.missingField) }
        guard let instanceId = decode(instance), let interactionId = decode(interaction) else { return .failure(.malformed) }
        guard !instanceId.isEmpty else { return .failure(.missingField) }
        return .success(BeaconForm(instanceId: instanceId, interactionId: interactionId))
    }

    /// The `key=value` pairs of `&`-separated text, undecoded (a pair without `=` has an empty value).
    static func pairs(_ bytes: [UInt8]) -> [(ArraySlice<UInt8>, ArraySlice<UInt8>)] {
        bytes.split(separator: UInt8(ascii: "&")).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return (pair, []) }
            return (pair[..<equals], pair[(equals + 1)...])
        }
    }

    /// Percent-decoded UTF-8 (`+` is a space); nil for a bad escape, invalid UTF-8 or more than ``maxFieldBytes``.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, maxFieldBytes))
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                out.append(UInt8(ascii: " "))
                index += 1
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 3
            default:
                out.append(byte)
                index += 1
            }
            guard out.count <= maxFieldBytes else { return nil }
        }
        return String(bytes: out, encoding: .utf8)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
