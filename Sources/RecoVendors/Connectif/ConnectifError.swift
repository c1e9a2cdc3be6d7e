/// Why a Connectif event cannot be built or was not delivered. Its description names the field at
/// fault with its place in the purchase: `products[1].quantity: must be at least 1, got 0`.
public struct ConnectifError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case missingField(String)
        case invalidField(String, reason: String)
        case unknownSourceType(String)
        case sendFailed(String)
    }

    /// What kind of failure this is; compare with the static members.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// A required field is empty.
        public static let missingField = Kind(name: "missingField")
        /// A field's value breaks a rule.
        public static let invalidField = Kind(name: "invalidField")
        /// `source_type` is not one of the five values.
        public static let unknownSourceType = Kind(name: "unknownSourceType")
        /// The event could not be delivered.
        public static let sendFailed = Kind(name: "sendFailed")
        public var description: String { name }
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// A required field is empty (blank text, no products).
    public static func missingField(_ field: String) -> ConnectifError { ConnectifError(.missingField(field)) }
    /// A field's value breaks a rule.
    public static func invalidField(_ field: String, _ reason: String) -> ConnectifError { ConnectifError(.invalidField(field, reason: reason)) }
    /// `source_type` is not one of ``PurchaseSourceType/allCases``.
    public static func unknownSourceType(_ value: String) -> ConnectifError { ConnectifError(.unknownSourceType(value)) }
    /// The sender could not deliver the event.
    public static func sendFailed(_ reason: String) -> ConnectifError { ConnectifError(.sendFailed(reason)) }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .missingField: .missingField
        case .invalidField: .invalidField
        case .unknownSourceType: .unknownSourceType
        case .sendFailed: .sendFailed
        }
    }

    /// The field at fault, as a path in the purchase (`cartId`, `products[0].unitPrice`, `source_type`).
    public var field: String? {
        switch base {
        case .missingField(let field), .invalidField(let field, _): field
        case .unknownSourceType: "source_type"
        case .sendFailed: nil
        }
    }

    public var description: String {
        switch base {
        case .missingField(let field):
            return "\(field): required, but empty"
        case .invalidField(let field, let reason):
            return "\(field): \(reason)"
        case .unknownSourceType(let value):
            let valid = PurchaseSourceType.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            var text = "source_type: unknown value \"\(value)\"; valid values are \(valid)"
            if value == "pont-of-sale" { text += " (the guide's table misspells \"point-of-sale\")" }
            return text
        case .sendFailed(let reason):
            return "the event was not delivered: \(reason)"
        }
    }
}
