import Foundation

/// A request body written in one pass into one byte buffer: JSON literals, string fields copied from
/// journal records (escaped as ``JSONWriter`` escapes them), event ids and times, without a `String`
/// or a dictionary per event.
///
/// ```swift
/// var body = BodyWriter(capacity: records.count * 300)
/// body.append("[")
/// body.appendJSONString(record.productId, of: record)
/// ```
public struct BodyWriter: Sendable {
    /// What is written so far.
    public var written: [UInt8] { bytes }
    @usableFromInline var bytes: [UInt8]

    /// An empty body with room for `capacity` bytes.
    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The body as `Data`.
    public var data: Data { Data(bytes) }

    /// Appends literal text (JSON punctuation and keys).
    @inlinable public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte.
    @inlinable public mutating func append(byte: UInt8) { bytes.append(byte) }

    /// Appends a record's field as it is (no quotes, no escaping: JSON text the record holds).
    public mutating func appendRaw(_ range: Range<Int>, of record: EventRecord) {
        bytes.append(contentsOf: record.bytes[range])
    }

    /// Appends a record's string field as a JSON string literal (with quotes); `""` when absent.
    public mutating func appendJSONString(_ range: Range<Int>?, of record: EventRecord) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(range, of: record)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a record's string field escaped for a JSON string, without quotes (nothing when absent).
    public mutating func appendEscaped(_ range: Range<Int>?, of record: EventRecord) {
        guard let range, !range.isEmpty else { return }
        record.bytes.withUnsafeBufferPointer { buffer in
            let start = range.lowerBound - record.bytes.startIndex
            appendEscaped(UnsafeBufferPointer(rebasing: buffer[start..<(start + range.count)]))
        }
    }

    /// Appends text as a JSON string literal (with quotes).
    public mutating func appendJSONString(_ text: String) {
        var text = text
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 bytes escaped for a JSON string (no quotes): `"`, `\` and control characters
    /// escaped as ``JSONWriter/writeString(_:to:)`` escapes them, the rest as it is.
    public mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            default:
                append("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            }
            index += 1
            runStart = index
        }
        if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
    }

    /// Whether a record's field starts with `prefix`.
    public static func field(_ range: Range<Int>?, of record: EventRecord, hasPrefix prefix: StaticString) -> Bool {
        guard let range else { return prefix.utf8CodeUnitCount == 0 }
        return prefix.withUTF8Buffer { wanted in
            range.count >= wanted.count && record.bytes[range.lowerBound..<(range.lowerBound + wanted.count)].elementsEqual(wanted)
        }
    }

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends an event id as ``EventID/description`` writes it (`3f9a1c2b7d4e5f60-42`), without quotes.
    public mutating func append(_ id: EventID) {
        var run = id.run
        var hex: (UInt64, UInt64) = (0, 0)
        // 16 hex digits, most significant first, packed into two words of 8 ASCII bytes.
        for shift in 0..<8 {
            let high = UInt8(truncatingIfNeeded: run >> 60)
            hex.0 |= UInt64(Self.hexDigits[Int(high)]) << UInt64(shift * 8)
            run <<= 4
        }
        for shift in 0..<8 {
            let high = UInt8(truncatingIfNeeded: run >> 60)
            hex.1 |= UInt64(Self.hexDigits[Int(high)]) << UInt64(shift * 8)
            run <<= 4
        }
        hex = (hex.0.littleEndian, hex.1.littleEndian)
        withUnsafeBytes(of: &hex) { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "-"))
        appendDecimal(id.sequence)
    }

    /// Appends a number in decimal.
    public mutating func appendDecimal(_ number: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for the 20 digits of UInt64.max
        var value = number
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    /// Appends the time as ``InteractionTime/iso8601(_:)`` writes it (`2024-05-01T12:34:56Z`), without quotes.
    public mutating func appendISO8601(milliseconds: Int64) {
        // The same rounding as the event's `Date` gives (seconds since 1970, rounded down).
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (0...9999).contains(year) else {
            var text = InteractionTime.iso8601(date)
            text.withUTF8 { bytes.append(contentsOf: $0) }
            return
        }
        func two(_ value: Int64) {
            bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        two(year / 100)
        two(year % 100)
        bytes.append(UInt8(ascii: "-"))
        two(month)
        bytes.append(UInt8(ascii: "-"))
        two(day)
        bytes.append(UInt8(ascii: "T"))
        two(secondOfDay / 3600)
        bytes.append(UInt8(ascii: ":"))
        two(secondOfDay / 60 % 60)
        bytes.append(UInt8(ascii: ":"))
        two(secondOfDay % 60)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends bytes as they are.
    public mutating func append(contentsOf other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }
}
