import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// A journal's files changed by another process while a tracker uses them.
///
/// Deleted (its folder removed by hand or by a deploy script, old files cleaned out of /tmp), a file still
/// takes writes through the open descriptor, and `fsync` succeeds, but nothing written to it survives the
/// process: the relay acknowledged 50 more lines after the folder was removed, and a kill lost them
/// without a word. Truncated (`: > file`, a log rotation that copies and truncates), a segment lost the
/// records it had acknowledged, and the next appends (O_APPEND) landed at offsets their frames do not
/// name: the relay acknowledged 100 more lines, every one of them unreadable. A sync checks that the
/// file is still the one at its name, and a write and a sync that the file is as long as the journal's
/// own writes left it; each fails saying what happened.
extension IntegrationSuite {
    @Suite("A journal deleted or changed while in use")
    struct JournalChangedWhileInUseTests {
        static func lines(_ range: ClosedRange<Int>) -> [String] {
            range.map { #"{"type":"click","instanceId":"rec_1","productId":"P-\#($0)","position":3,"userId":"u1","sessionId":"s1"}"# }
        }

        enum Change: CaseIterable, CustomStringConvertible {
            case folderDeleted, segmentDeleted, segmentEmptied, segmentCutInHalf, segmentWrittenTo
            var description: String {
                switch self {
                case .folderDeleted: "the folder deleted"
                case .segmentDeleted: "the segment file deleted"
                case .segmentEmptied: "the segment truncated to nothing"
                case .segmentCutInHalf: "the segment cut in half"
                case .segmentWrittenTo: "a line appended to the segment"
                }
            }

            /// What the relay's error says.
            var complaint: String {
                switch self {
                case .folderDeleted, .segmentDeleted: "segment-000000000001.log durable: the file was deleted or replaced while in use"
                case .segmentEmptied, .segmentCutInHalf: "segment-000000000001.log: it is %d bytes long where the journal left it at %d; another process truncated it while in use"
                case .segmentWrittenTo: "segment-000000000001.log: it is %d bytes long where the journal left it at %d; another process wrote to it while in use"
                }
            }

            /// Makes the change; the segment's size after it.
            func make(in directory: URL, segmentSize: Int) throws -> Int {
                let segment = directory.appendingPathComponent(JournalState.fileName(1))
                switch self {
                case .folderDeleted: try FileManager.default.removeItem(at: directory)
                case .segmentDeleted: try FileManager.default.removeItem(at: segment)
                case .segmentEmptied, .segmentCutInHalf:
                    let size = self == .segmentEmptied ? 0 : segmentSize / 2
                    #expect(truncate(segment.path, off_t(size)) == 0)
                    return size
                case .segmentWrittenTo:
                    let handle = try FileHandle(forWritingTo: segment)
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data("not the journal's\n".utf8))
                    try handle.close()
                    return segmentSize + 18
                }
                return 0
            }
        }

        /// 50 lines acknowledged, then the journal changed, then 50 lines more: none of those is
        /// acknowledged, and the relay fails saying why.
        @Test(arguments: Change.allCases)
        func noLineIsAcknowledgedIntoAJournalChangedUnderIt(_ change: Change) async throws {
            let parent = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: parent) }
            let directory = parent.appendingPathComponent("journal")
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", "http://127.0.0.1:9",
                                          "--api-key", "k", "--durability", "strict", "--deadline", "2"])
            relay.feed(Self.lines(1...50), keepOpen: true)
            #expect(await relay.waitUntil { $0.acknowledged.count == 50 })
            let written = try #require(try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(JournalState.fileName(1)).path)[.size] as? Int)
            let size = try change.make(in: directory, segmentSize: written)
            relay.feed(Self.lines(51...100))
            #expect(relay.wait() == 1, "\(relay.stderr)")
            #expect(relay.acknowledged.count == 50, "\(relay.acknowledged.count) lines acknowledged")
            #expect(relay.acknowledged.keys.allSatisfy { $0 <= 50 })
            let complaint = change.complaint.replacingOccurrences(of: "%d bytes", with: "\(size) bytes")
                .replacingOccurrences(of: "at %d", with: "at \(written)")
            #expect(relay.stderr.contains(complaint), "\(relay.stderr)")
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

    /// A segment truncated under a library tracker (strict): the next `track` throws saying so (its event
    /// is not kept); the journal is then whole again where it left it, so later events are kept and read
    /// back, and the records the truncation took are reported as damage when the journal opens next,
    /// not lost without a word.
    @Test(arguments: [0, 1, 2])
    func aTruncatedSegmentIsReportedAndTheJournalGoesOn(_ cut: Int) async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let segment = directory.appendingPathComponent(JournalState.fileName(1))
        let configuration = TrackerConfiguration(journal: directory, durability: .strict)
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, transport: UnreachableTransport())
        for number in 1...10 { try tracker.track(Fixtures.click("P-\(number)")) }
        let written = try #require(try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int)
        // Nothing, a third, or all but the last 16 bytes left (the last record's tail: its final byte
        // alone may be zero, which the journal's rollback writes back as it was).
        let size = [0, written / 3, written - 16][cut]
        #expect(truncate(segment.path, off_t(size)) == 0)
        #expect(throws: TrackingError.self) { try tracker.track(Fixtures.click("P-11")) }
        let error = tracker.statistics.diskError ?? ""
        #expect(error.contains("it is \(size) bytes long where the journal left it at \(written); another process truncated it while in use"), "\(error)")
        try tracker.track(Fixtures.click("P-12"))
        _ = await tracker.shutdown(deadline: .zero)

        let reopened = try Tracker(destination: CountingDestination(), configuration: configuration, transport: UnreachableTransport())
        let report = reopened.recoveryReport
        _ = await reopened.shutdown(deadline: .zero)
        let lost = report.damage.filter { $0.file == JournalState.fileName(1) }.map(\.byteRange)
        // What the truncation took (from the last whole record before the cut to where the journal had
        // written) is reported; the whole records before it and P-12, written after, are pending.
        #expect(lost.contains { $0.lowerBound <= size && $0.upperBound == written }, "\(report)")
        switch cut {
        case 0: #expect(report.pendingEvents == 1, "\(report)")
        case 1: #expect((2...9).contains(report.pendingEvents), "\(report)")
        default: #expect(report.pendingEvents == 10, "\(report)")
        }
    }
}

/// A vendor that cannot be reached: every event stays pending.
struct UnreachableTransport: Transport {
    func send(_ request: TrackingRequest, timeout: Duration) async throws -> TrackingReply {
        throw URLError(.cannotConnectToHost)
    }
}
