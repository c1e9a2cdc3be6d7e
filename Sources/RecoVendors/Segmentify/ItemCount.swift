/// What a Segmentify `itemCount` says, read without ever trapping: a count that fits, a whole number
/// too large for an `Int` (`"99999999999999999999"`, `1e30`), a negative one, or no whole number.
enum ItemCount: Equatable {
    case count(Int)
    case tooLarge
    case negative
    case unreadable

    /// Reads `8`, `"8"`, `" 8 "`, `8.0` or `8e0`; `"8.5"`, `"eight"`, `true` are unreadable.
    init(_ value: JSONValue) {
        switch value {
        case .number, .string: break
        default: self = .unreadable; return
        }
        if let count = value.intValue {
            self = count < 0 ? .negative : .count(count)
            return
        }
        // The text is made only now: trimming costs more than reading a count that fits.
        let text: String
        switch value {
        case .number(let number): text = number.text
        case .string(let string): text = string.trimmingCharacters(in: .whitespaces)
        default: self = .unreadable; return
        }
        // Not an Int: all digits (a sign allowed) or a whole number in exponent form is out of range.
        var digits = Substring(text)
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        if !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            self = negative ? .negative : .tooLarge
            return
        }
        guard let double = JSONNumber(text: text)?.double, double.isFinite, double == double.rounded() else {
            self = .unreadable
            return
        }
        self = double < 0 ? .negative : .tooLarge
    }
}

/// Why a dynamic item's `itemCount` is not taken as written; each becomes a notice on the block.
enum ItemCountNote: Hashable, Sendable {
    /// Present but not a whole number: counts as 0.
    case unreadable
    /// Below zero (the text as sent): counts as 0.
    case negative(String)
    /// Above ``ReplyLimits/itemCount`` (the text as sent): clamped to it.
    case clamped(String)
}
