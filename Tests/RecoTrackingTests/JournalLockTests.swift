import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// One tracker at a time in a journal directory, even when its lock file goes: an operator told "in use
/// by another process" deletes `lock` as a stale one, or a cleaner of empty files removes it. A second
/// relay then locked a new file and took lines into the same journal beside the first. The directory
/// itself is locked too.
@Suite("One tracker at a time, the lock file deleted or not")
struct JournalLockTests {
    static func tracker(_ directory: URL) throws -> Tracker {
        try Tracker(destination: CountingDestination(), configuration: TrackerSetup(journal: directory, durability: .strict),
                    transport: UnreachableTransport())
    }

    @Test(arguments: [false, true])
    func aSecondTrackerIsRefusedWhileTheFirstRuns(lockFileDeleted: Bool) async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.tracker(directory)
        try first.track(Fixtures.click("P-1"))
        if lockFileDeleted { try FileManager.default.removeItem(at: directory.appendingPathComponent("lock")) }
        #expect(throws: TrackingError.journalInUse(directory.path)) { _ = try Self.tracker(directory) }
        #expect(throws: TrackingError.journalInUse(directory.path)) { _ = try JournalDirectory.inspect(directory) }
        #expect(throws: TrackingError.journalInUse(directory.path)) { _ = try JournalDirectory.repair(directory) }
        try first.track(Fixtures.click("P-2"))
        _ = await first.shutdown(deadline: .zero)
        // Once the first is gone, the next opens it and finds both events.
        let second = try Self.tracker(directory)
        #expect(second.recoveryReport.pendingEvents == 2)
        _ = await second.shutdown(deadline: .zero)
        #expect(try JournalDirectory.inspect(directory).pending == 2)
    }
}

extension RelayProcessSuite.JournalChangedWhileInUseTests {
    /// Two relays: the second, started on the directory of a running one whose lock file was deleted,
    /// exits 1 saying the journal is in use, and takes no line.
    @Test func aSecondRelayIsRefusedAfterTheLockFileIsDeleted() async throws {
        let parent = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("journal")
        let arguments = ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", "http://127.0.0.1:9",
                         "--api-key", "k", "--durability", "strict", "--deadline", "1"]
        let first = try RelayProcess(arguments)
        first.feed(Self.lines(1...10), keepOpen: true)
        #expect(await first.waitUntil { $0.acknowledged.count == 10 })
        try FileManager.default.removeItem(at: directory.appendingPathComponent("lock"))
        let second = try RelayProcess(arguments)
        second.feed(Self.lines(11...20))
        #expect(second.wait() == 1, "\(second.stderr)")
        #expect(second.acknowledged.isEmpty)
        #expect(second.stderr.contains("the journal \(directory.path) is in use by another process"), "\(second.stderr)")
        first.feed(Self.lines(21...30))
        #expect(first.wait() == 0, "\(first.stderr)")
        #expect(first.acknowledged.count == 20)
        let journal = try RelayProcess(["journal", directory.path])
        #expect(journal.wait() == 0)
        #expect(journal.stdout.hasPrefix("pending 20\n"), "\(journal.stdout)")
    }
}
