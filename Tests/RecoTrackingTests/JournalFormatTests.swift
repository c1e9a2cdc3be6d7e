import Foundation
import Testing
import RecoKitTesting
@testable import RecoTracking
import RecoKit

/// Invariant 6: the on-disk format is versioned and read back whatever order Swift declares things in.
/// `Fixtures/journal-format-1` was written by `recokit relay` as released before the format had versions
/// in its segments (commit ca9d525), `Fixtures/journal-format-2` by today's, both from
/// `Fixtures/journal-lines.jsonl`; a change that misreads either fails here.
@Suite("Journal format: files written by earlier and current versions are read exactly")
struct JournalFormatTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The fixture copied to a temporary directory (a journal opened for delivery repairs and deletes).
    func copy(_ name: String) throws -> URL {
        let directory = Fixtures.temporaryDirectory()
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.appendingPathComponent(name).path) {
            try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(name).appendingPathComponent(file),
                                            to: directory.appendingPathComponent(file))
        }
        return directory
    }

    func events(in directory: URL) throws -> [TrackedEvent] {
        let (journal, report) = try Journal.open(storage: FileJournalStorage(directory: directory), durability: .strict,
                                                 maxBytes: 1 << 30, segmentBytes: 1 << 20)
        defer { journal.close() }
        #expect(report.damage.isEmpty, "\(report)")
        #expect(report.checkpointNote == nil, "\(report)")
        let batch = try #require(try journal.take(maxCount: 100, maxBytes: 1 << 20, interval: .zero, force: true))
        return try batch.payloads.map { try EventCodec.decode($0) }
    }

    @Test(arguments: ["journal-format-1", "journal-format-2"])
    func theSixLinesComeBackExactly(fixture: String) throws {
        let directory = try copy(fixture)
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = try events(in: directory)
        #expect(events.map(\.interaction.kind) == [.impression, .widgetView, .click, .searchClick, .searchClick, .vendorEvent])
        #expect(events.map(\.id.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(Set(events.map(\.id.run)).count == 1)
        #expect(events.map(\.interaction.productId) == [nil, nil, "240-LV09", "240-LV10", "240-LV11", nil])
        #expect(events.map(\.interaction.searchPhase) == [nil, nil, nil, .beforeSearch, .search, nil])
        #expect(events[0].interaction.instanceId == "rec_legacy_1")
        #expect(events[0].interaction.context.lang == "TR")
        #expect(events[2].interaction.position == 3)
        #expect(events[2].interaction.context.params["campaign"]?.stringValue == "winter")
        #expect(events[2].interaction.context.pageUrl == "https://shop.example/p/1")
        #expect(events[2].interaction.occurred == ISO8601DateFormatter().date(from: "2026-11-21T10:00:02Z"))
        #expect(events.allSatisfy { $0.interaction.context.userId == "u-legacy" && $0.interaction.context.sessionId == "s-legacy" })
        #expect(events[5].interaction.vendorEvent?.name == "PAGE_VIEW")
        #expect(events[5].interaction.vendorEvent?.fields["category"]?.stringValue == "Home Page")
    }

    @Test func aVersionOneJournalGetsNewRecordsInAVersionTwoSegment() throws {
        let directory = try copy("journal-format-1")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (journal, _) = try Journal.open(storage: FileJournalStorage(directory: directory), durability: .strict,
                                                maxBytes: 1 << 30, segmentBytes: 1 << 20)
            _ = try journal.append(EventCodec.encode(TrackedEvent(id: EventID(run: 9, sequence: 7), interaction: Fixtures.click("NEW-1"))))
            try journal.commit()
            journal.close()
        }
        let second = try [UInt8](Data(contentsOf: directory.appendingPathComponent("segment-000000000002.log")))
        #expect(second.starts(with: RecordFrame.segmentHeader))
        #expect(try events(in: directory).map(\.interaction.productId) == [nil, nil, "240-LV09", "240-LV10", "240-LV11", nil, "NEW-1"])
    }

    /// A version-2 frame as the format's table defines it, built here byte by byte (not by the journal's code):
    /// mark, frame version, the low byte of the place's CRC-32, length, and the CRC-32 of the place and payload.
    static func frame(_ payload: [UInt8], segment: UInt64, offset: Int) -> [UInt8] {
        func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        let place = littleEndian(segment) + littleEndian(UInt64(offset)) + littleEndian(UInt32(payload.count))
        return [0x52, 0x4B, 2, UInt8(truncatingIfNeeded: CRC32.checksum(place))] + littleEndian(UInt32(payload.count))
            + littleEndian(CRC32.checksum(place + payload)) + payload
    }

    /// Every segment holds its header, then each record's frame for the place it stands at, whatever the
    /// records' sizes (under and over the 32 bytes where the CRC-32 changes method) and however appends and
    /// commits interleave (several flushes into one segment, segments rotated when full). Seeded:
    /// `RECOKIT_FRAME_SEED=N` replays.
    @Test func segmentsHoldExactlyTheFramesOfTheirRecords() throws {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_FRAME_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("JournalFormatTests seed: \(seed) (replay: RECOKIT_FRAME_SEED=\(seed) swift test --filter segmentsHoldExactlyTheFramesOfTheirRecords)")
        var random = SeededRandom(seed: seed)
        for round in 0..<20 {
            let storage = MemoryJournalStorage()
            let (journal, _) = try Journal.open(storage: storage, durability: .batched(every: .seconds(3600)),
                                                maxBytes: 1 << 30, segmentBytes: Int.random(in: 200...4000, using: &random))
            var payloads: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...120, using: &random) {
                let size = [Int.random(in: 1...40, using: &random), Int.random(in: 1...600, using: &random)].randomElement(using: &random)!
                let payload = [UInt8(Int.random(in: 1...2, using: &random))] + (1..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
                _ = try journal.append(payload)
                payloads.append(payload)
                if Int.random(in: 0..<4, using: &random) == 0 { try journal.commit() }
            }
            try journal.commit()
            // The segments in order, each rebuilt from the payloads it should hold.
            let names = storage.list().filter { JournalState.segmentNumber($0) != nil }.sorted()
            var next = 0
            for name in names {
                let segment = try #require(JournalState.segmentNumber(name))
                let bytes = storage.read(name, offset: 0, count: try #require(storage.size(name)))
                var expected = RecordFrame.segmentHeader
                while next < payloads.count, expected.count < bytes.count {
                    expected += Self.frame(payloads[next], segment: segment, offset: expected.count)
                    next += 1
                }
                let common = min(bytes.count, expected.count)
                let differs = (0..<common).first { bytes[$0] != expected[$0] } ?? (bytes.count == expected.count ? nil : common)
                #expect(differs == nil, "RECOKIT_FRAME_SEED=\(seed), round \(round): \(name) (\(bytes.count) bytes, its records' frames \(expected.count)) differs from byte \(differs ?? 0)")
            }
            #expect(next == payloads.count, "RECOKIT_FRAME_SEED=\(seed), round \(round): \(payloads.count - next) records in no segment")
            journal.close()
        }
    }

    /// A frame is read as the table defines it, field by field: the one built above reads back as its
    /// payload at its own place only, and each header byte changed alone makes it something else (the
    /// mark and frame version are not covered by the checksum: only their check refuses them).
    @Test func eachFieldOfAFrameIsChecked() {
        let payload: [UInt8] = [2] + (1..<45).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let frame = Self.frame(payload, segment: 7, offset: 16)
        let bytes = [UInt8](repeating: 0, count: 16) + frame
        guard case .record(let read, let next) = RecordFrame.frame(in: bytes, at: 16, segment: 7, format: .version2) else {
            Issue.record("the frame does not read back")
            return
        }
        #expect(Array(read) == payload && next == bytes.count)
        #expect(RecordFrame.frame(in: bytes, at: 16, base: 12, segment: 7, format: .version2) == .invalid(.headerCheckMismatch))
        #expect(RecordFrame.frame(in: bytes, at: 16, segment: 8, format: .version2) == .invalid(.headerCheckMismatch))
        let expected: [RecordFrame.Frame] = [.invalid(.noMark), .invalid(.noMark), .invalid(.noMark), .invalid(.headerCheckMismatch),
                                             .invalid(.headerCheckMismatch), .invalid(.headerCheckMismatch), .invalid(.headerCheckMismatch),
                                             .invalid(.headerCheckMismatch), .invalid(.checksumMismatch), .invalid(.checksumMismatch),
                                             .invalid(.checksumMismatch), .invalid(.checksumMismatch)]
        for (index, answer) in expected.enumerated() {
            var changed = bytes
            changed[16 + index] ^= 0x01
            #expect(RecordFrame.frame(in: changed, at: 16, segment: 7, format: .version2) == answer, "header byte \(index) changed")
        }
        var payloadChanged = bytes
        payloadChanged[bytes.count - 1] ^= 0x80
        #expect(RecordFrame.frame(in: payloadChanged, at: 16, segment: 7, format: .version2) == .invalid(.checksumMismatch))
        #expect(RecordFrame.frame(in: Array(bytes.dropLast()), at: 16, segment: 7, format: .version2) == .incomplete)
    }

    /// The kind codes are the journal's, not Swift's: each kind keeps the byte it has always had.
    @Test func kindCodesAreFixed() {
        #expect(EventCodec.kindCodes.map(\.code) == [0, 1, 2, 3, 4])
        #expect(EventCodec.kindCodes.map(\.kind) == [.impression, .widgetView, .click, .searchClick, .vendorEvent])
        #expect(Set(EventCodec.kindCodes.map(\.kind)) == Set(Interaction.Kind.allCases), "every kind needs a code of its own")
        for (kind, code) in EventCodec.kindCodes {
            let interaction = Interaction(kind: kind, instanceId: "rec_1", interactionId: "act_1", productId: "P",
                                          context: Fixtures.context, occurred: Date(timeIntervalSince1970: 0),
                                          vendorEvent: kind == .vendorEvent ? VendorEvent(vendor: .segmentify, name: "PAGE_VIEW", fields: [:]) : nil)
            #expect(EventCodec.encode(TrackedEvent(id: EventID(run: 1, sequence: 1), interaction: interaction))[25] == code)
        }
    }
}
