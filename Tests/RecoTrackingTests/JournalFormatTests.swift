import Foundation
import Testing
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
            _ = try journal.append(EventCodec.encode(TrackedEvent(id: EventID(run: 9, sequence: 7), interaction: Fixtures.click("NEW-1"))),
                                   assigningSequence: false)
            try journal.commit()
            journal.close()
        }
        let second = try [UInt8](Data(contentsOf: directory.appendingPathComponent("segment-000000000002.log")))
        #expect(second.starts(with: RecordFrame.segmentHeader))
        #expect(try events(in: directory).map(\.interaction.productId) == [nil, nil, "240-LV09", "240-LV10", "240-LV11", nil, "NEW-1"])
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
