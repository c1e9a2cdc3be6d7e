import Foundation
import Testing
import RecoKitTesting
import RecoKit
@testable import RecoTracking

/// Times as journal records hold them: whole milliseconds since 1970. A time given in milliseconds (a
/// relay line's `"occurred"`, a record read back) is journaled as that millisecond and reads back as
/// itself however often it is written again. FuzzRelayLine found `"occurred": 1716005` journaled as
/// 1716004: `1716005 / 1000` is a hair under 1716.005 as a `Double`, and the record rounded down.
@Suite("Record times: whole milliseconds, the same across trips")
struct RecordTimeTests {
    func record(milliseconds: Int64) -> EventRecord {
        let occurred = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return EventRecord(TrackedEvent(id: EventID(run: 7, sequence: 1), interaction: Fixtures.click("P-1", occurred: occurred)))
    }

    @Test func aTimeInWholeMillisecondsKeepsItsMillisecondAcrossTrips() throws {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_TIME_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("aTimeInWholeMillisecondsKeepsItsMillisecondAcrossTrips seed: \(seed) (replay: RECOKIT_TIME_SEED=\(seed))")
        var random = SeededRandom(seed: seed)
        let fixed: [Int64] = [0, 1, 999, 1_716_005, 1_714_566_896_123, 253_402_300_799_999]
        let drawn = (0..<20_000).map { _ in Int64.random(in: 0...253_402_300_799_999, using: &random) }
        var shifted: [Int64] = []
        for milliseconds in fixed + drawn {
            let record = record(milliseconds: milliseconds)
            let again = EventRecord(try record.event())
            let third = EventRecord(try again.event())
            if record.occurredMilliseconds != milliseconds || again.bytes != record.bytes || third.bytes != record.bytes {
                shifted.append(milliseconds)
            }
        }
        #expect(shifted.isEmpty, "\(shifted.count) of \(fixed.count + drawn.count) times moved, first \(shifted.prefix(5))")
    }

    /// Between two milliseconds, a time is rounded down to the earlier (as before), unless it lies within
    /// a microsecond of the later.
    @Test func aTimeBetweenMillisecondsIsRoundedDown() {
        #expect(RecordWriter.milliseconds(of: Date(timeIntervalSince1970: 1716.0057)) == 1_716_005)
        #expect(RecordWriter.milliseconds(of: Date(timeIntervalSince1970: 1716.005_998)) == 1_716_005)
        #expect(RecordWriter.milliseconds(of: Date(timeIntervalSince1970: 1716.005_999_9)) == 1_716_006)
        #expect(RecordWriter.milliseconds(of: Date(timeIntervalSince1970: -0.0005)) == UInt64(bitPattern: -1))
    }
}
