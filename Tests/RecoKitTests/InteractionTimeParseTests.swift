import Foundation
import RecoKit
import RecoKitTesting
import Testing

/// `InteractionTime.parse` reads every ISO 8601 time an interaction line may carry, exactly, and nothing else.
@Suite struct InteractionTimeParseTests {
    /// Seeded times from year 1 to 9999, written with every kind of fraction and zone the parser takes:
    /// each reads back as the instant it names, and (from 1600, away from calendar reforms) as Foundation's
    /// own ISO 8601 parser reads it, to the second.
    @Test func readsEveryWellFormedTime() {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_TIME_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("InteractionTimeParseTests seed: \(seed) (replay: RECOKIT_TIME_SEED=\(seed) swift test --filter InteractionTimeParseTests)")
        var random = SeededRandom(seed: seed)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var checkedAgainstFoundation = 0
        for _ in 0..<4_000 {
            let utc = Int64.random(in: -62_135_596_800...253_402_300_799 - 86_400, using: &random)
            let offsetMinutes = Bool.random(using: &random) ? 0 : Int64.random(in: -(23 * 60 + 59)...(23 * 60 + 59), using: &random)
            let local = InteractionTime.calendarFields(secondsSince1970: utc + offsetMinutes * 60)
            guard (1...9999).contains(local.year) else { continue }
            var text = String(repeating: "0", count: 4 - "\(local.year)".count) + "\(local.year)-\(two(local.month))-\(two(local.day))"
            text += "T\(two(local.secondOfDay / 3600)):\(two(local.secondOfDay / 60 % 60)):\(two(local.secondOfDay % 60))"
            let digits = Bool.random(using: &random) ? 0 : Int.random(in: 1...9, using: &random)
            let fraction = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
            if digits > 0 { text += "." + fraction }
            let micros = Int64((fraction + "000000").prefix(6))!
            let zone = abs(offsetMinutes)
            switch (offsetMinutes, Int.random(in: 0..<3, using: &random)) {
            case (0, 0): text += "Z"
            case (_, 0), (_, 1): text += (offsetMinutes < 0 ? "-" : "+") + two(zone / 60) + (Bool.random(using: &random) ? ":" : "") + two(zone % 60)
            default: text += zone % 60 == 0 ? (offsetMinutes < 0 ? "-" : "+") + two(zone / 60) : "Z"
            }
            let expected = text.hasSuffix("Z") && offsetMinutes != 0 ? utc + offsetMinutes * 60 : utc
            let parsed = InteractionTime.parse(text)
            #expect(parsed == Date(timeIntervalSince1970: Double(expected) + Double(micros) / 1_000_000), "\(text) (seed \(seed))")
            if local.year >= 1600, digits == 0, let foundation = try? Date.ISO8601FormatStyle().parse(text) {
                #expect(parsed == foundation, "\(text): Foundation reads \(foundation) (seed \(seed))")
                checkedAgainstFoundation += 1
            }
        }
        #expect(checkedAgainstFoundation > 1_000, "only \(checkedAgainstFoundation) times compared with Foundation (seed \(seed))")
    }

    @Test func refusesAnythingElse() {
        let refused = [
            "", "2024-05-01", "2024-05-01T12:34:56", "2024-05-01 12:34:56Z", "2024-05-01t12:34:56z", "20240501T123456Z",
            "2024-5-1T12:34:56Z", "  2024-05-01T12:34:56Z", "2024-05-01T12:34:56Z ", "2024-05-01T12:34:56Z junk",
            "2024-02-30T12:34:56Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z",
            "2024-05-00T00:00:00Z", "2024-04-31T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T23:59:60Z",
            "2024-05-01T12:34:56.Z", "2024-05-01T12:34:56,123Z", "2024-05-01T12:34:56+3", "2024-05-01T12:34:56+03:", "2024-05-01T12:34:56+03:0",
            "2024-05-01T12:34:56+24:00", "2024-05-01T12:34:56+03:60", "2024-05-01T12:34:56+03:00:00", "-2024-05-01T12:34:56Z",
            "99999-05-01T12:34:56Z", "２０２４-05-01T12:34:56Z", "2024-05-01T12:34:5６Z",
        ]
        for text in refused { #expect(InteractionTime.parse(text) == nil, "\(text.debugDescription) was read as a time") }
        #expect(InteractionTime.parse("2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
        #expect(InteractionTime.parse("2024-05-01T15:34:56+03:00") == Date(timeIntervalSince1970: 1_714_566_896))
        #expect(InteractionTime.parse("2024-05-01T07:04:56-0530") == Date(timeIntervalSince1970: 1_714_566_896))
        #expect(InteractionTime.parse("1969-12-31T23:59:59.5Z") == Date(timeIntervalSince1970: -0.5))
    }
}
