import RecoKit

/// Leaves out, before decoding, every Segmentify block whose `dynamicItems` ask for more products than
/// a page can show (`itemCount` over a limit, as a number or a string).
///
/// RecoKit's decoder adds these counts up; a count near `Int.max` once overflowed there and stopped the
/// whole process (a trap cannot be caught in Swift). Whatever RecoKit does with such counts, the
/// storefront never hands it one: the block is removed from the reply and the reason returned, to be
/// logged. Other blocks of the reply are kept. Anything the check cannot read (a malformed block,
/// `dynamicItems` that is not JSON) is left for the decoder, which reports it.
public enum SegmentifyCountCheck {
    /// The reply without the blocks whose counts are over `maxItemCount`, and a sentence for each one left out.
    public static func check(_ reply: JSONValue, maxItemCount: Int) -> (reply: JSONValue, leftOut: [String]) {
        guard case .object(var envelope) = reply, case .array(let groups)? = envelope["responses"] else { return (reply, []) }
        var leftOut: [String] = []
        var kept: [JSONValue] = []
        kept.reserveCapacity(groups.count)
        for (groupIndex, group) in groups.enumerated() {
            guard case .array(let items) = group else {
                kept.append(group)
                continue
            }
            var keptItems: [JSONValue] = []
            keptItems.reserveCapacity(items.count)
            for (itemIndex, item) in items.enumerated() {
                if let count = largestCount(in: item), count > maxItemCount {
                    let instance = item["params"]?["instanceId"]?.stringValue.map { " (\(String($0.prefix(64))))" } ?? ""
                    leftOut.append("$.responses[\(groupIndex)][\(itemIndex)]\(instance): itemCount \(count) is over \(maxItemCount); the block is left out")
                } else {
                    keptItems.append(item)
                }
            }
            kept.append(.array(keptItems))
        }
        guard !leftOut.isEmpty else { return (reply, []) }
        envelope["responses"] = .array(kept)
        return (.object(envelope), leftOut)
    }

    /// The largest `itemCount` among a block's dynamic items, read as RecoKit reads it (a whole number,
    /// or a string holding one); `Int.max` for a whole number too large for `Int`; nil when none.
    static func largestCount(in item: JSONValue) -> Int? {
        let dynamicItems: JSONValue
        switch item["params"]?["dynamicItems"] {
        case .string(let text)?:
            guard let parsed = try? JSONValue(parsing: text) else { return nil }
            dynamicItems = parsed
        case .array(let list)?:
            dynamicItems = .array(list)
        default:
            return nil
        }
        guard case .array(let entries) = dynamicItems else { return nil }
        var largest: Int?
        for entry in entries {
            guard let value = entry["itemCount"], let count = count(value) else { continue }
            largest = max(largest ?? count, count)
        }
        return largest
    }

    /// A count as a whole number; `Int.max` for one too large for `Int` (written as digits, in a number
    /// or a string); nil for anything else.
    static func count(_ value: JSONValue) -> Int? {
        if let whole = value.intValue { return whole }
        let text: String
        switch value {
        case .number(let number): text = number.text
        case .string(let string): text = string.trimmingCharacters(in: .whitespaces)
        default: return nil
        }
        let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            // 1e30, 12.5, -3, "x": RecoKit reads none of these as a count (they count as 0), except that
            // a number in exponent form may be whole: be safe and treat any other number as huge.
            if case .number = value, !text.hasPrefix("-") { return Int.max }
            return nil
        }
        return Int(digits) ?? Int.max
    }
}
