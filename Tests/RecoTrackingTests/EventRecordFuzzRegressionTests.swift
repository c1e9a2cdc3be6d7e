@testable import RecoDestinations
import Foundation
import RecoKit
@testable import RecoTracking
import RecoVendors
import Testing

/// Journal records whose frame checks out but whose payload this version of RecoKit did not write, as
/// FuzzEventRecords (in `Fuzz/`) makes them: each is read into events or refused, and never traps in the
/// process that sends it (a trap there comes back at every start, since the record stays pending).
@Suite struct EventRecordFuzzRegressionTests {
    /// FuzzEventRecords' first crash (within 5 s of its first run): a version-1 record whose position is
    /// a varint above `Int.max`. The record check read it, with its position cut to 64 bits as a page's
    /// impressions are; decoding it trapped converting the position ("Not enough bits to represent the
    /// passed value"). Now both read the same position, and both encoders write the same body from it.
    @Test func aPositionBeyondIntReadsAlikeEitherWay() throws {
        let payload = bytes(hex: "010121496e0100ea25eaeaeaeaeaeaeaea00000000000a00000000fefefefefefefefefe2101000000000000000000000000"
            + "00000000000000000000000000000000000000de00000000002100000000000101010101010101010000000000000000000000000000"
            + "000000000000000000000000000000000000000d00004f7074696f6e616c00000100000000000000000000")
        var records: [EventRecord] = []
        try EventRecord.read(payload[...], into: &records)
        #expect(records.count == 1)
        let event = try records[0].event()
        #expect(event.interaction.position == records[0].position)
        #expect(SegmentifyEventEncoder.body(records: records) == SegmentifyOracle.body([event]))
        #expect(RetenoEventEncoder.body(records: records) == RetenoOracle.body([event]))
    }

    /// A string whose length marker is above `Int.max` (the varint of 2^63 + 1): refused as a truncated
    /// record, with nothing read from it.
    @Test func aStringLengthBeyondIntIsRefused() {
        let valid = Array(EventRecord(TrackedEvent(id: EventID(run: 1, sequence: 1),
                                                   interaction: Interaction(kind: .click, instanceId: "scn_1", productId: "p1"))).bytes)
        // The fixed part (27 bytes), the position (0: none), then the first string's marker.
        let payload = Array(valid[..<28]) + [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01] + Array(repeating: 0x41, count: 40)
        var records: [EventRecord] = []
        #expect(throws: TrackingError.self) { try EventRecord.read(payload[...], into: &records) }
        #expect(records.isEmpty)
    }

    /// FuzzEventRecords, once its bodies were compared with those of the events' own records: records
    /// (an event's, and a page's impressions) whose time lies before 1970 or after 9999, which no tracker
    /// writes. Read, the event's time could not write the same record again, so its bodies differed;
    /// each is now refused as damage, with nothing read from it.
    @Test func aTimeNoTrackerWritesIsRefused() throws {
        let click = Interaction(kind: .click, instanceId: "scn_1", productId: "p1")
        var page = PageImpressions(context: InteractionContext(userId: "u", sessionId: "s"))
        page.addBlock(Widget<RawProduct>(vendor: .segmentify, instanceId: "scn_2", interactionId: "act_2", title: "", rawProducts: []))
        let valid = [Array(EventRecord(TrackedEvent(id: EventID(run: 1, sequence: 1), interaction: click)).bytes),
                     PageRecordCodec.encode(page, run: 1, firstSequence: 1)]
        for seed in valid {
            var records: [EventRecord] = []
            try EventRecord.read(seed[...], into: &records)
            #expect(records.count == 1)
            // The time is the 8 bytes at 17, little-endian, in both layouts.
            for millis: Int64 in [-1, -9_223_370_322_287_880_000, 253_402_300_800_000, .max] {
                var payload = seed
                withUnsafeBytes(of: UInt64(bitPattern: millis).littleEndian) { payload.replaceSubrange(17..<25, with: $0) }
                records = []
                #expect(throws: TrackingError.self, "\(millis) ms") { try EventRecord.read(payload[...], into: &records) }
                #expect(records.isEmpty)
            }
        }
    }

    private func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
    }
}
