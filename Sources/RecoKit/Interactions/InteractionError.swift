import Foundation

/// An interaction that cannot be tracked, with the reason in one line.
///
/// `track` throws it before anything is journaled, so a bad event never reaches the vendor.
public struct InteractionError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case missingField(String)
        case emptyProductId
        case notInWidget
        case unsupported
        case malformed
        case occurredOutOfRange
        case shopBlock
    }

    private let base: Base
    /// What is wrong, in words.
    public let message: String

    private init(_ base: Base, _ message: String) {
        self.base = base
        self.message = message
    }

    /// A required field is absent or blank (for example Segmentify's `userId`).
    public static func missingField(_ name: String, for kind: Interaction.Kind) -> InteractionError {
        InteractionError(.missingField(name), "\(kind.withArticle) needs a non-empty \(name)")
    }

    /// A product interaction without a product id.
    public static func emptyProductId(for kind: Interaction.Kind) -> InteractionError {
        InteractionError(.emptyProductId, "\(kind.withArticle) needs a non-empty productId")
    }

    /// The interaction names a widget or product that the given widget does not hold.
    public static func notInWidget(_ message: String) -> InteractionError {
        InteractionError(.notInWidget, message)
    }

    /// The destination's vendor has no such event.
    public static func unsupported(_ message: String) -> InteractionError {
        InteractionError(.unsupported, message)
    }

    /// A textual interaction (a JSON line) that cannot be read.
    public static func malformed(_ message: String) -> InteractionError {
        InteractionError(.malformed, message)
    }

    /// The interaction's time lies outside ``InteractionTime/trackable``.
    public static func occurredOutOfRange(_ occurred: Date, for kind: Interaction.Kind) -> InteractionError {
        InteractionError(.occurredOutOfRange, "\(kind.withArticle) cannot have occurred at \(InteractionTime.iso8601(occurred)): "
                         + "its time must lie from \(InteractionTime.trackableText)")
    }

    /// The same error with a hint appended to its message (`…; Reteno counts an impression per product:
    /// …`); its kind stays as it was.
    public func hinting(_ hint: String) -> InteractionError { InteractionError(base, "\(message); \(hint)") }

    /// The interaction is about a block the shop filled from its own products (``ShopBlock``), and
    /// `destination` is a vendor's: a vendor is never told of the shop's blocks as if they were its own.
    public static func shopBlock(_ instanceId: String, destination: String) -> InteractionError {
        InteractionError(.shopBlock, "the block \"\(instanceId.shortened(to: 64))\" is the shop's own (its instance id starts with "
                         + "\"\(ShopBlock.idPrefix)\"), not \(destination)'s: track it to a destination of the shop's own, or not at all")
    }

    /// The same error with its message prefixed by where it happened (`impression 3 of the page
    /// (instanceId "v1", productId "P-9"): …`); its kind and ``isMissing(_:)`` stay as they were.
    public func located(_ place: String) -> InteractionError { InteractionError(base, "\(place): \(message)") }

    /// What kind of failure this is: compare with the static members (`error.kind == .missingField`).
    /// New kinds may be added; a `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// A required field is absent or blank (``isMissing(_:)`` asks which).
        public static let missingField = Kind(name: "missingField")
        /// A product interaction without a product id.
        public static let emptyProductId = Kind(name: "emptyProductId")
        /// The interaction names a widget or product that the given widget does not hold.
        public static let notInWidget = Kind(name: "notInWidget")
        /// The destination's vendor has no such event.
        public static let unsupported = Kind(name: "unsupported")
        /// A textual interaction (a JSON line) that cannot be read.
        public static let malformed = Kind(name: "malformed")
        /// The interaction's time lies outside ``InteractionTime/trackable``.
        public static let occurredOutOfRange = Kind(name: "occurredOutOfRange")
        /// A vendor's destination was given an interaction about the shop's own block (``ShopBlock``).
        public static let shopBlock = Kind(name: "shopBlock")
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .missingField: .missingField
        case .emptyProductId: .emptyProductId
        case .notInWidget: .notInWidget
        case .unsupported: .unsupported
        case .malformed: .malformed
        case .occurredOutOfRange: .occurredOutOfRange
        case .shopBlock: .shopBlock
        }
    }

    /// Whether the error names the given missing field.
    public func isMissing(_ field: String) -> Bool { base == .missingField(field) }

    /// Whether the product was not found in the widget.
    public var isNotInWidget: Bool { base == .notInWidget }

    /// Whether the product id was empty.
    public var isEmptyProductId: Bool { base == .emptyProductId }

    public var description: String { message }
}

extension Interaction.Kind {
    /// The kind's name with its article, for messages: "an impression", "a click", "a widget-view".
    var withArticle: String {
        let name = rawValue
        return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }
}
