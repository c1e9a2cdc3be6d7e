import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// A journal's files deleted while a process uses them (its folder removed by hand or by a deploy script,
/// old files cleaned out of /tmp) still take writes through the open descriptors, and `fsync` succeeds,
/// but nothing written to them survives the process. The relay acknowledged such lines as durable: after
/// the folder was removed, 50 more lines were acknowledged, and a kill lost them without a word. A sync
/// now checks that the file is still the one at its name, and fails when it is not.
extension IntegrationSuite {
    @Suite("A journal deleted while in use")
    struct JournalDeletedTests {
        static func lines(_ range: ClosedRange<Int>) -> [String] {
            range.map { #"{"type":"click","instanceId":"rec_1","productId":"P-\#($0)","position":3,"userId":"u1","sessionId":"s1"}"# }
        }

        enum Deleted: CaseIterable, CustomStringConvertible {
            case folder, segment
            var description: String { self == .folder ? "the folder" : "the segment file" }
        }

        /// 50 lines acknowledged, then the journal deleted, then 50 lines more: none of those is
        /// acknowledged, and the relay fails saying why.
        @Test(arguments: Deleted.allCases)
        func noLineIsAcknowledgedIntoADeletedJournal(_ deleted: Deleted) async throws {
            let parent = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: parent) }
            let directory = parent.appendingPathComponent("journal")
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", "http://127.0.0.1:9",
                                          "--api-key", "k", "--durability", "strict", "--deadline", "2"])
            relay.feed(Self.lines(1...50), keepOpen: true)
            #expect(await relay.waitUntil { $0.acknowledged.count == 50 })
            switch deleted {
            case .folder: try FileManager.default.removeItem(at: directory)
            case .segment: try FileManager.default.removeItem(at: directory.appendingPathComponent(JournalState.fileName(1)))
            }
            relay.feed(Self.lines(51...100))
            #expect(relay.wait() == 1, "\(relay.stderr)")
            #expect(relay.acknowledged.count == 50, "\(relay.acknowledged.count) lines acknowledged")
            #expect(relay.acknowledged.keys.allSatisfy { $0 <= 50 })
            #expect(relay.stderr.contains("segment-000000000001.log durable: the file was deleted or replaced while in use"), "\(relay.stderr)")
        }
    }
}

extension JournalFaultTests {
    /// The same in a library tracker (strict): `track` throws once the journal's folder is gone, and the
    /// statistics say why.
    @Test func trackThrowsOnceTheJournalFolderIsDeleted() async throws {
        let parent = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("journal")
        let tracker = try Tracker(destination: CountingDestination(), configuration: TrackerConfiguration(journal: directory, durability: .strict),
                                  transport: SwitchingTransport())
        for number in 1...10 { try tracker.track(Fixtures.click("P-\(number)")) }
        try FileManager.default.removeItem(at: directory)
        #expect(throws: TrackingError.self) { try tracker.track(Fixtures.click("P-11")) }
        #expect(tracker.statistics.diskError?.contains("was deleted or replaced while in use") == true, "\(String(describing: tracker.statistics.diskError))")
        _ = await tracker.shutdown(deadline: .zero)
    }
}
