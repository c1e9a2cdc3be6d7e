import Foundation

/// A JSON number kept exactly as it was written, so that money keeps every digit.
///
/// `349.99` stays `349.99` as a `Decimal`; `Double` is available for comparisons and arithmetic where
/// a binary approximation is acceptable.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The number's literal text, as it appeared in the JSON document (for example `-12.50e3`).
    public let text: String

    /// Makes a number from its JSON text; nil when the text is not a JSON number.
    public init?(text: String) {
        guard Self.isValidLiteral(text.utf8) else { return nil }
        self.text = text
    }

    /// Makes a number from text already checked by the parser.
    init(uncheckedText text: String) { self.text = text }

    public init(_ value: Int) { self.text = String(value) }
    public init(_ value: Decimal) { self.text = value.description }
    public init(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { self.text = String(Int64(value)) } else { self.text = "\(value)" }
    }
    public init(integerLiteral value: Int) { self.init(value) }
    public init(floatLiteral value: Double) { self.init(value) }

    /// The exact decimal value (`"349.99"` gives 349.99, not 349.989999…).
    public var decimal: Decimal? { Self.fastDecimal(text.utf8) ?? Decimal(string: text, locale: Self.posix) }
    /// The nearest `Double`.
    public var double: Double? { Double(text) }
    /// The value as an `Int` when it is a whole number that fits (`8`, `8.0`, `8e0`).
    public var int: Int? {
        if let value = Int(text) { return value }
        guard let double, double == double.rounded(), abs(double) < 9.0e18 else { return nil }
        return Int(double)
    }

    public var description: String { text }

    /// Two numbers are equal when their values are equal (`1.50` == `1.5`), whatever their spelling.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        lhs.text == rhs.text || (lhs.decimal != nil && lhs.decimal == rhs.decimal)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(decimal ?? 0)
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// The decimal for a valid literal of at most 19 significant digits, built straight from its digits
    /// (Foundation's string parser costs thousands of instructions a price); nil for anything else, which
    /// then goes through `Decimal(string:)`.
    static func fastDecimal<Bytes: Sequence<UInt8>>(_ utf8: Bytes) -> Decimal? {
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var negative = false
        var seenDot = false
        var iterator = utf8.makeIterator()
        var next = iterator.next()
        if next == UInt8(ascii: "-") { negative = true; next = iterator.next() }
        while let byte = next {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if mantissa == 0 && byte == UInt8(ascii: "0") {
                    if seenDot { exponent -= 1 }
                } else {
                    guard digits < 19 else { return nil }
                    mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                    digits += 1
                    if seenDot { exponent -= 1 }
                }
            } else if byte == UInt8(ascii: ".") && !seenDot {
                seenDot = true
            } else {
                return nil  // exponents and anything unusual take the slow path
            }
            next = iterator.next()
        }
        if mantissa == 0 { return Decimal(0) }
        while mantissa % 10 == 0 { mantissa /= 10; exponent += 1 }
        guard exponent >= -128 && exponent <= 127 else { return nil }
        return Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa))
    }

    /// Whether the bytes form a JSON number literal (RFC 8259: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    static func isValidLiteral<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var index = bytes.startIndex
        func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        func digits() -> Bool {
            guard isDigit(peek()) else { return false }
            while isDigit(peek()) { index = bytes.index(after: index) }
            return true
        }
        if peek() == UInt8(ascii: "-") { index = bytes.index(after: index) }
        if peek() == UInt8(ascii: "0") {
            index = bytes.index(after: index)
        } else if !digits() {
            return false
        }
        if peek() == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            guard digits() else { return false }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index = bytes.index(after: index) }
            guard digits() else { return false }
        }
        return index == bytes.endIndex
    }
}
