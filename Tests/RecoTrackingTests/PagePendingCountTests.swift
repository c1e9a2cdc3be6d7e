import Foundation
import Testing
import RecoKit
@testable import RecoTracking

/// A page's impressions are journaled as one record, but every count a user reads counts them as the
/// events they are: pending (statistics, shutdown summary, recovery report, `JournalDirectory`), and the
/// events a damage report says were lost.
@Suite("Page impressions are counted as events, not journal records")
struct PagePendingCountTests {
    /// 25 impressions: a block and the 24 products of another.
    static var page: PageImpressions { PageImpressionsTests.page() }

    func click(_ number: Int) -> [UInt8] {
        EventCodec.encode(TrackedEvent(id: EventID(run: 77, sequence: UInt64(number)), interaction: Fixtures.click("P-\(number)")))
    }

    func pageRecord(firstSequence: UInt64) -> [UInt8] {
        Array(PageImpressions.journalRecord(of: Self.page, run: 77, firstSequence: firstSequence))
    }

    func open(_ storage: any JournalStorage) throws -> (Journal, JournalRecoveryReport) {
        try Journal.open(storage: storage, durability: .strict, maxBytes: 1 << 30, segmentBytes: 1 << 20)
    }

    @Test func aPageRecordCountsItsImpressions() {
        #expect(PageRecordCodec.eventCount(of: pageRecord(firstSequence: 1)[...]) == 25)
        #expect(PageRecordCodec.eventCount(of: click(1)[...]) == 1)
        // A record that cannot be read as a page is one (unreadable) record, dead-lettered whole.
        #expect(PageRecordCodec.eventCount(of: pageRecord(firstSequence: 1)[..<27]) == 1)
    }

    /// Pending while running, after part of a page was delivered, after a kill (recovery), and as
    /// inspected; the journal forgets the page only when all of it is settled.
    @Test func aPageIsPendingAsItsImpressionsThroughDeliveryAndAKill() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (journal, _) = try open(FileJournalStorage(directory: directory))
            _ = try journal.append(click(1))
            _ = try journal.append(pageRecord(firstSequence: 2))
            _ = try journal.append(click(27))
            try journal.commit()
            #expect(journal.pendingCount == 27)
            let batch = try #require(try journal.take(maxCount: 2, maxBytes: 1 << 20, interval: .zero, force: true))
            #expect(batch.payloads.count == 2)
            #expect(journal.untakenCount == 1)
            // The click and the page's first 9 impressions went out in a first request.
            journal.delivered(10, of: batch)
            #expect(journal.pendingCount == 17)
            #expect(journal.untakenCount == 1)
            journal.storage.close()   // killed before the batch was acknowledged
        }
        #expect(try JournalDirectory.inspect(directory).pending == 27)
        let (journal, report) = try open(FileJournalStorage(directory: directory))
        // Sent again: delivery is at least once.
        #expect(report.pendingEvents == 27)
        #expect(journal.pendingCount == 27)
        let first = try #require(try journal.take(maxCount: 2, maxBytes: 1 << 20, interval: .zero, force: true))
        journal.acknowledge(first)
        #expect(journal.pendingCount == 1)
        journal.close()
        #expect(try JournalDirectory.inspect(directory).pending == 1)
    }

    /// A strict write that fails refuses the page: all of its impressions leave the count.
    @Test func aRefusedPageLeavesTheCountWhole() throws {
        let storage = FaultyStorage(seed: 21)
        let (journal, _) = try open(storage)
        defer { journal.close() }
        try journal.makeDurable(upTo: journal.append(pageRecord(firstSequence: 1)).serial)
        #expect(journal.pendingCount == 25)
        storage.arm(.shortWrite, on: .append, after: 0)
        let refused = try journal.append(pageRecord(firstSequence: 26)).serial
        #expect(journal.pendingCount == 50)
        #expect(throws: TrackingError.self) { try journal.makeDurable(upTo: refused) }
        #expect(journal.pendingCount == 25)
    }

    /// Damage met while running costs the page record it is in: all its impressions, reported as lost.
    @Test func aFlippedByteInAPageCostsItsImpressionsAndSaysSo() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (journal, _) = try open(FileJournalStorage(directory: directory))
        defer { journal.close() }
        _ = try journal.append(click(1))
        for page in 0..<3 { _ = try journal.append(pageRecord(firstSequence: UInt64(2 + 25 * page))) }
        try journal.commit()
        #expect(journal.pendingCount == 76)
        let segment = directory.appendingPathComponent("segment-000000000001.log")
        var bytes = try [UInt8](Data(contentsOf: segment))
        var offsets: [Int] = []
        _ = RecordFrame.scan(bytes, segment: 1, from: RecordFrame.segmentHeaderSize, format: .version2) { offset, _ in offsets.append(offset) }
        bytes[offsets[2] + 60] ^= 0x10   // inside the second page
        try Data(bytes).write(to: segment)
        var events = 0
        while let batch = try journal.take(maxCount: 50, maxBytes: 1 << 20, interval: .zero, force: true) {
            var records: [EventRecord] = []
            for payload in batch.payloads { try EventRecord.read(payload, into: &records) }
            events += records.count
            journal.acknowledge(batch)
        }
        #expect(events == 51)
        #expect(journal.pendingCount == 0)
        #expect(journal.damage.count == 1)
        #expect(journal.damage.first?.lostEvents == 25)
    }

    static func tracker(_ transport: any Transport, journal: URL? = nil) throws -> Tracker {
        var configuration = TrackerSetup(journal: journal, durability: journal == nil ? .memory : .strict)
        configuration.maxConcurrentRequests = 1
        configuration.flushInterval = .milliseconds(1)
        configuration.idlePollInterval = .milliseconds(1)
        configuration.maxBatchEvents = 10
        return try Tracker(destination: CountingDestination(), configuration: configuration, transport: transport, clock: TestClock())
    }

    /// Requests of 10: while the second waits, the first's 10 impressions are no longer pending.
    @Test func aPageDeliveredInPartCountsWhatIsLeft() async throws {
        let transport = GatedTransport()
        let tracker = try Self.tracker(transport)
        transport.held = EventID(run: tracker.idRun, sequence: 11).description
        let ids = try tracker.track(Self.page)
        #expect(ids.count == 25)
        #expect(tracker.statistics.pending == 25)
        #expect(tracker.statistics.accepted == 25)
        try await tracker.flush()
        await transport.waitUntilHeld()
        #expect(tracker.statistics.pending == 15)
        #expect(tracker.statistics.delivered == 10)
        transport.release()
        #expect(await tracker.waitUntilIdle(timeout: .seconds(60)))
        #expect(tracker.statistics.pending == 0)
        #expect(await tracker.shutdown(deadline: .seconds(1)) == ShutdownSummary(delivered: 25, pending: 0, deadLettered: 0))
    }

    /// A refused impression is found by bisection in the first request; it stays pending until its dead
    /// letter is written (with the rest of the page), then counts one dead-lettered event.
    @Test func deadLetteredImpressionsAreCountedOneEach() async throws {
        let transport = GatedTransport()
        let tracker = try Self.tracker(transport)
        transport.rejected = EventID(run: tracker.idRun, sequence: 4).description
        transport.held = EventID(run: tracker.idRun, sequence: 11).description
        try tracker.track(Self.page)
        try await tracker.flush()
        await transport.waitUntilHeld()
        #expect(tracker.statistics.delivered == 9)
        #expect(tracker.statistics.pending == 16)
        transport.release()
        #expect(await tracker.waitUntilIdle(timeout: .seconds(60)))
        let statistics = tracker.statistics
        #expect(statistics.pending == 0)
        #expect(statistics.deadLettered == 1)
        #expect(statistics.delivered == 24)
        #expect(try await tracker.deadLetters().map(\.event.id.sequence) == [4])
        // Taken back (same id), and this time the vendor takes it.
        transport.rejected = ""
        #expect(try await tracker.requeueDeadLetters() == 1)
        #expect(tracker.statistics.pending == 1)
        #expect(await tracker.waitUntilIdle(timeout: .seconds(60)))
        #expect(await tracker.shutdown(deadline: .seconds(1)) == ShutdownSummary(delivered: 25, pending: 0, deadLettered: 1))
    }

    /// What a user reads at shutdown and at the next start: the page's impressions, one each.
    @Test func theShutdownSummaryAndTheNextStartCountImpressions() async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = GatedTransport()
        let tracker = try Self.tracker(transport, journal: directory)
        // Every request waits: nothing is delivered before shutdown.
        transport.held = EventID(run: tracker.idRun, sequence: 1).description
        try tracker.track(Self.page)
        try tracker.track(Fixtures.click("P-1"))
        #expect(tracker.statistics.pending == 26)
        #expect(await tracker.shutdown(deadline: .zero) == ShutdownSummary(delivered: 0, pending: 26, deadLettered: 0))
        #expect(try JournalDirectory.inspect(directory).pending == 26)
        let next = try Self.tracker(ScriptedTransport([]), journal: directory)
        #expect(next.recoveryReport.pendingEvents == 26)
        #expect(next.statistics.pending == 26)
        #expect(await next.waitUntilIdle(timeout: .seconds(60)))
        #expect(await next.shutdown(deadline: .seconds(1)) == ShutdownSummary(delivered: 26, pending: 0, deadLettered: 0))
    }
}
