/// A Segmentify event that cannot be sent as built: a mandatory field is missing, a value is
/// malformed, or two fields conflict. The description names the field first:
/// `productView.price: must be a number ≥ 0, got -5`.
public struct SegmentifyEventError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case missing
        case invalid
        case conflict
    }

    private let base: Base
    /// The field at fault, prefixed with the event (`checkout.products[1].productId`).
    public let field: String
    /// What is wrong, in words (without the field).
    public let reason: String

    private init(_ base: Base, field: String, reason: String) {
        self.base = base
        self.field = field
        self.reason = reason
    }

    /// A mandatory field is absent or blank.
    public static func missing(_ field: String) -> SegmentifyEventError {
        SegmentifyEventError(.missing, field: field, reason: "is mandatory and was not given")
    }

    /// A value breaks the guide's format: `must` says the rule, `got` shows the value.
    public static func invalid(_ field: String, must rule: String, got value: String) -> SegmentifyEventError {
        SegmentifyEventError(.invalid, field: field, reason: "must \(rule), got \(value)")
    }

    /// A field that is fine alone but not together with the rest of the event.
    public static func conflict(_ field: String, _ reason: String) -> SegmentifyEventError {
        SegmentifyEventError(.conflict, field: field, reason: reason)
    }

    /// What kind of failure this is: compare with the static members (`error.kind == .missing`).
    /// New kinds may be added; a `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// A mandatory field is absent or blank.
        public static let missing = Kind(name: "missing")
        /// A value breaks the guide's format.
        public static let invalid = Kind(name: "invalid")
        /// A field that is fine alone but not together with the rest of the event.
        public static let conflict = Kind(name: "conflict")
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .missing: .missing
        case .invalid: .invalid
        case .conflict: .conflict
        }
    }

    /// Whether a mandatory field is missing.
    public var isMissing: Bool { base == .missing }
    /// Whether a value is malformed.
    public var isInvalid: Bool { base == .invalid }
    /// Whether fields conflict.
    public var isConflict: Bool { base == .conflict }

    public var description: String { "\(field): \(reason)" }
}
