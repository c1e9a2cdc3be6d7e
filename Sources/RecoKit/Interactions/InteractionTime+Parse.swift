import Foundation

extension InteractionTime {
    /// Parses an ISO 8601 date and time with its time zone, as an interaction line carries it:
    /// `2024-05-01T12:34:56Z`, with fractional seconds (`12:34:56.123Z`, any number of digits, kept to
    /// the microsecond) or an offset (`+03:00`, `+0300`, `+03`, `-05:30`). Nothing may come before or
    /// after it; nil for anything else, including impossible dates (`2024-02-30`) and times (`24:00:00`,
    /// a leap second `23:59:60`).
    ///
    /// Written by hand, byte by byte: a relay line's time is read for every line, and a Foundation
    /// `ISO8601DateFormatter` (an ICU formatter made per call) cost about 270 µs a line.
    public static func parse(_ text: String) -> Date? {
        parse(utf8: Array(text.utf8))
    }

    private static func parse(utf8 bytes: [UInt8]) -> Date? {
        var at = 0
        func number(_ digits: Int) -> Int64? {
            guard at + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<digits {
                let digit = bytes[at] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
                at += 1
            }
            return value
        }
        func skip(_ character: Unicode.Scalar) -> Bool {
            guard at < bytes.count, bytes[at] == UInt8(ascii: character) else { return false }
            at += 1
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2), skip("T"),
              let hour = number(2), skip(":"), let minute = number(2), skip(":"), let second = number(2),
              (1...12).contains(month), day >= 1, day <= days(inMonth: month, of: year), hour < 24, minute < 60, second < 60
        else { return nil }
        var micros: Int64 = 0
        if skip(".") {
            let first = at
            var scale: Int64 = 100_000
            while at < bytes.count, bytes[at] &- UInt8(ascii: "0") < 10 {
                micros += Int64(bytes[at] &- UInt8(ascii: "0")) * scale
                scale /= 10
                at += 1
            }
            guard at > first else { return nil }
        }
        var offset: Int64 = 0
        if !skip("Z") {
            let sign: Int64
            if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
            guard let hours = number(2), hours < 24 else { return nil }
            var minutes: Int64 = 0
            if at < bytes.count {
                _ = skip(":")
                guard let value = number(2), value < 60 else { return nil }
                minutes = value
            }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        guard at == bytes.count else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    private static func days(inMonth month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (days-from-civil; the inverse of
    /// ``calendarFields(secondsSince1970:)``).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
