import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// The faults the journal once lost events to, each as a test of its own (the simulation covers their
/// combinations: `JournalSimulationTests`).
@Suite("Journal faults: drains, full disks, flipped bytes, short writes, read-only inspection")
struct JournalFaultTests {
    func payload(_ number: Int) -> [UInt8] {
        EventCodec.encode(TrackedEvent(id: EventID(run: 77, sequence: UInt64(number)), interaction: Fixtures.click("P-\(number)")))
    }

    func products(_ payloads: [ArraySlice<UInt8>]) throws -> [String] {
        try payloads.map { try EventCodec.decode($0).interaction.productId ?? "" }
    }

    func open(_ storage: any JournalStorage, durability: Durability = .strict) throws -> (Journal, JournalRecoveryReport) {
        try Journal.open(storage: storage, durability: durability, maxBytes: 1 << 30, segmentBytes: 1 << 20)
    }

    func drain(_ journal: Journal) throws -> [String] {
        var all: [String] = []
        while let batch = try journal.take(maxCount: 50, maxBytes: 1 << 20, interval: .zero, force: true) {
            all += try products(batch.payloads)
            journal.acknowledge(batch)
        }
        return all
    }

    /// Invariant 4. The defect: a drain left the checkpoint naming the start of a segment never created;
    /// the next run wrote its events to segment 1, was killed, and the run after deleted segment 1 as
    /// "before the checkpoint" (0 of 31 accepted events delivered).
    @Test func eventsAcceptedAfterADrainSurviveAKill() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (journal, _) = try open(FileJournalStorage(directory: directory))
            for number in 1...20 { _ = try journal.append(payload(number)) }
            try journal.commit()
            #expect(try drain(journal).count == 20)
            journal.close()
        }
        do {
            // The next run: 31 events, durable, then SIGKILL (no close, nothing acknowledged).
            let (journal, report) = try open(FileJournalStorage(directory: directory))
            #expect(report.pendingEvents == 0)
            for number in 21...51 { _ = try journal.append(payload(number)) }
            try journal.commit()
            journal.storage.close()   // the process dies: its lock goes, nothing else happens
        }
        let (journal, report) = try open(FileJournalStorage(directory: directory))
        defer { journal.close() }
        #expect(report.pendingEvents == 31)
        #expect(try drain(journal) == (21...51).map { "P-\($0)" })
        // The checkpoint on disk names a segment that exists.
        let checkpoint = try #require(CheckpointFile.decode(try [UInt8](Data(contentsOf: directory.appendingPathComponent("checkpoint")))))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(JournalState.fileName(checkpoint.segment)).path))
    }

    /// Invariant 2. The defect: after ENOSPC a short write left part of a record on disk and the retry
    /// appended the whole buffer after it; the next open cut everything from there as corrupt (24,231 of
    /// 30,000 committed events lost).
    @Test(arguments: [FaultyStorage.Fault.error(.noSpace), .shortWrite, .syncFailure, .error(.failed)])
    func aDiskFullForAMomentLosesNothingCommitted(fault: FaultyStorage.Fault) throws {
        let storage = FaultyStorage(seed: 11)
        let (journal, _) = try open(storage, durability: .batched(every: .seconds(3600)))
        var committed: [Int] = []
        var failures = 0
        var number = 0
        for round in 1...40 {
            var appended: [Int] = []
            for _ in 0..<25 {
                number += 1
                do { _ = try journal.append(payload(number)); appended.append(number) } catch {
                    #expect(journal.diskError != nil)   // refused with the disk's error while it lasts
                }
            }
            if round == 10 { storage.arm(fault, on: nil, after: 0, times: 3) }
            do {
                try journal.commit()
                committed += appended
                #expect(journal.diskError == nil)
            } catch {
                failures += 1
                #expect(journal.diskError != nil, "a failed commit leaves the error in the journal's state")
                // The records stay buffered: the next good commit writes them.
                committed += appended
            }
        }
        #expect(failures > 0, "the fault \(fault) never reached a commit")
        try journal.commit()
        journal.close()
        let (reopened, report) = try open(FaultyStorage(disk: storage.disk, seed: 12))
        defer { reopened.close() }
        // Where even the rollback failed, the partial write is still on disk, past the end of a segment
        // that was closed for it: reported as a torn tail, and no committed record is in it.
        for damage in report.damage { #expect(damage.reason.contains("torn"), "\(report)") }
        #expect(Set(try drain(reopened)) == Set(committed.map { "P-\($0)" }))
    }

    /// Invariant 2 in strict mode: a failed write is cut back and refused, the next one succeeds, and the
    /// file holds only whole records.
    @Test func aShortStrictWriteIsRolledBackAndRefused() throws {
        let storage = FaultyStorage(seed: 5)
        let (journal, _) = try open(storage)
        for number in 1...3 { try journal.makeDurable(upTo: journal.append(payload(number)).serial) }
        let before = storage.disk.files.values.map(\.content.count).reduce(0, +)
        storage.arm(.shortWrite, on: .append, after: 0)
        let refused = try journal.append(payload(4)).serial
        #expect(throws: TrackingError.self) { try journal.makeDurable(upTo: refused) }
        #expect(storage.disk.files.values.map(\.content.count).reduce(0, +) == before, "the partial record was cut off")
        #expect(journal.pendingCount == 3)
        try journal.makeDurable(upTo: journal.append(payload(5)).serial)
        #expect(journal.diskError == nil)
        journal.close()
        let (reopened, report) = try open(FaultyStorage(disk: storage.disk, seed: 6))
        defer { reopened.close() }
        #expect(report.damage.isEmpty)
        #expect(try drain(reopened) == ["P-1", "P-2", "P-3", "P-5"])
    }

    /// Invariant 3. The defect: one flipped byte lost every record after it in its segment, and damage met
    /// while running was passed over without a word (the relay exited 0, `pending` later read 0).
    @Test func aFlippedByteWhileRunningCostsOneRecordAndIsReported() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (journal, _) = try open(FileJournalStorage(directory: directory))
        defer { journal.close() }
        for number in 1...100 { _ = try journal.append(payload(number)) }
        try journal.commit()
        let segment = directory.appendingPathComponent("segment-000000000001.log")
        var bytes = try [UInt8](Data(contentsOf: segment))
        var offsets: [Int] = []
        _ = RecordFrame.scan(bytes, segment: 1, from: RecordFrame.segmentHeaderSize, format: .version2) { offset, _ in offsets.append(offset) }
        let damaged = offsets[49]   // record 50
        let recordSize = offsets[50] - offsets[49]
        bytes[damaged + 40] ^= 0x10
        try Data(bytes).write(to: segment)   // same size, written in place
        let delivered = try drain(journal)
        #expect(delivered == (1...100).filter { $0 != 50 }.map { "P-\($0)" })
        #expect(journal.pendingCount == 0)
        let damage = try #require(journal.damage.first)
        #expect(journal.damage.count == 1)
        #expect(damage.file == "segment-000000000001.log")
        #expect(damage.byteRange == damaged..<(damaged + recordSize))
        #expect(damage.lostEvents == 1)
        // The damaged bytes are kept in quarantine, with the file and range named.
        let quarantine = String(decoding: try Data(contentsOf: directory.appendingPathComponent("quarantine.log")), as: UTF8.self)
        #expect(quarantine.contains(#""file":"segment-000000000001.log""#))
        #expect(quarantine.contains(#""offset":\#(damaged)"#))
    }

    /// Invariant 5: inspection only reads; repair is asked for; a folder that is not a journal is an error.
    @Test func inspectionChangesNothingAndRepairIsExplicit() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (journal, _) = try open(FileJournalStorage(directory: directory))
            for number in 1...5 { _ = try journal.append(payload(number)) }
            try journal.commit()
            journal.close()
        }
        let segment = directory.appendingPathComponent("segment-000000000001.log")
        let handle = try #require(FileHandle(forWritingAtPath: segment.path))
        handle.seekToEndOfFile()
        handle.write(Data("RK\u{2}torn".utf8))   // an interrupted write
        try handle.close()
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
            }
            return files
        }
        let before = try snapshot()
        let contents = try JournalDirectory.inspect(directory)
        #expect(contents.pending == 5)
        #expect(contents.recovery.damage.count == 1)
        #expect(try snapshot() == before, "inspection changed the directory")
        let repaired = try JournalDirectory.repair(directory)
        #expect(repaired.recovery.damage.count == 1)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("quarantine.log").path))
        let after = try JournalDirectory.inspect(directory)
        #expect(after.recovery.damage.isEmpty)
        #expect(after.pending == 5)

        let notAJournal = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: notAJournal) }
        try Data("hello".utf8).write(to: notAJournal.appendingPathComponent("notes.txt"))
        #expect(throws: TrackingError.self) { try JournalDirectory.inspect(notAJournal) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: notAJournal.path) == ["notes.txt"])
        #expect(throws: TrackingError.self) { try JournalDirectory.inspect(notAJournal.appendingPathComponent("missing")) }
    }

    /// Found by FuzzJournal: a checkpoint naming a record that was damaged is kept (the damage starts
    /// there), and repair covers that record with padding; the next open took the padding's place for
    /// "not the start of a record" and restarted delivery at the oldest segment (duplicates, and a report
    /// that no longer matched the repair's). A padding record is a record boundary.
    @Test func aCheckpointAtARepairedRecordStaysValid() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recordSize: Int
        do {
            let (journal, _) = try open(FileJournalStorage(directory: directory))
            for number in 1...5 { _ = try journal.append(payload(number)) }
            try journal.commit()
            recordSize = RecordFrame.headerSize + payload(1).count
            let batch = try #require(try journal.take(maxCount: 2, maxBytes: 1 << 20, interval: .zero, force: true))
            #expect(try products(batch.payloads) == ["P-1", "P-2"])
            journal.acknowledge(batch)
            journal.close()
        }
        // The third record, where the checkpoint now points, gets one flipped payload byte.
        let segment = directory.appendingPathComponent("segment-000000000001.log")
        var bytes = try [UInt8](Data(contentsOf: segment))
        let third = RecordFrame.segmentHeaderSize + 2 * recordSize
        bytes[third + RecordFrame.headerSize + 3] ^= 0x40
        try Data(bytes).write(to: segment)

        let inspected = try JournalDirectory.inspect(directory)
        #expect(inspected.pending == 2)
        #expect(inspected.recovery.damage.map(\.byteRange) == [third..<(third + recordSize)])
        #expect(inspected.recovery.checkpointNote == nil)
        let repaired = try JournalDirectory.repair(directory)
        #expect(repaired.pending == 2)
        let after = try JournalDirectory.inspect(directory)
        #expect(after.recovery.checkpointNote == nil, "\(after.recovery)")
        #expect(after.recovery.damage.isEmpty)
        #expect(after.pending == 2)
        let (journal, _) = try open(FileJournalStorage(directory: directory))
        defer { journal.close() }
        #expect(try drain(journal) == ["P-4", "P-5"])
    }

    /// A tracker over a disk that fails for a moment: `track` (batched) refuses with the disk's error
    /// while it lasts, `statistics.diskError` says so until a commit succeeds, and everything accepted
    /// is delivered.
    @Test func aTrackerReportsTheDiskAndDeliversEverythingAccepted() async throws {
        let storage = FaultyStorage(seed: 21)
        var configuration = TrackerSetup(journal: nil, durability: .batched(every: .seconds(3600)))
        configuration.flushInterval = .milliseconds(1)
        let transport = ScriptedTransport([])
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, storage: storage,
                                  transport: transport, clock: SystemTrackingClock())
        var accepted: [EventID] = []
        for number in 1...50 { accepted.append(try tracker.track(Fixtures.click("P-\(number)"))) }
        storage.arm(.error(.noSpace), on: .append, after: 0, times: 2)
        await #expect(throws: TrackingError.self) { try await tracker.commit() }
        #expect(tracker.statistics.diskError?.contains("ENOSPC") == true)
        #expect(throws: TrackingError.self) { try tracker.track(Fixtures.click("refused")) }
        await #expect(throws: TrackingError.self) { try await tracker.commit() }
        try await tracker.commit()
        #expect(tracker.statistics.diskError == nil)
        for number in 51...60 { accepted.append(try tracker.track(Fixtures.click("P-\(number)"))) }
        try await tracker.flush()
        await tracker.waitUntilDelivered()
        _ = await tracker.shutdown(deadline: .seconds(5))
        let sent = Set(transport.requests.flatMap { String(decoding: $0.body, as: UTF8.self).split(separator: "\n").map(String.init) })
        #expect(sent == Set(accepted.map(\.description)))
    }
}

extension JournalFaultTests {
    /// Found by the system-call fault rounds once their segments rotated (seed 4242, rounds 66 and 168 of
    /// 200): a batch reads on into the next segment, and when that read failed, what was read went out
    /// and the error was dropped, so a relay whose disk failed a read exited 0 and said nothing.
    @Test func aReadThatFailsInTheNextSegmentEndsTheBatchAndIsReported() throws {
        let storage = FaultyStorage(seed: 11)
        let (journal, _) = try Journal.open(storage: storage, durability: .strict, maxBytes: 1 << 30, segmentBytes: 4096)
        defer { journal.close() }
        for range in [1...60, 61...120] {
            for number in range { _ = try journal.append(payload(number)) }
            try journal.commit()
        }
        #expect(storage.disk.files.keys.filter { $0.hasPrefix("segment-") }.count == 2)
        storage.arm(.error(.failed), on: .read, after: 1)
        let batch = try #require(try journal.take(maxCount: 500, maxBytes: 1 << 20, interval: .zero, force: true))
        #expect(try products(batch.payloads) == (1...60).map { "P-\($0)" }, "what was read goes out")
        #expect(batch.readError != nil, "the failed read goes with the batch")
        journal.acknowledge(batch)
        let rest = try #require(try journal.take(maxCount: 500, maxBytes: 1 << 20, interval: .zero, force: true))
        #expect(try products(rest.payloads) == (61...120).map { "P-\($0)" }, "the rest is read again")
        #expect(rest.readError == nil)
    }

    /// The same under a tracker: the batch is delivered, the error counted as a disk error while
    /// delivering (which makes a relay exit 1, naming it), and nothing is lost.
    @Test func aTrackerCountsAReadThatFailedAfterPartOfABatch() async throws {
        let storage = FaultyStorage(seed: 12)
        var configuration = TrackerSetup(journal: nil, durability: .strict)
        configuration.segmentBytes = 4096
        configuration.flushInterval = .seconds(3600)
        let transport = SwitchingTransport()
        transport.accept()
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, storage: storage,
                                  transport: transport, clock: SystemTrackingClock())
        var tracked: Set<String> = []
        // Fewer events than a batch holds (100), so that no batch is full, and none claimed, before the
        // flush: the sender's first read comes after the fault is armed.
        for number in 1...90 {
            tracked.insert(try tracker.track(Fixtures.click("P-\(number)")).description)
        }
        #expect(storage.disk.files.keys.filter { $0.hasPrefix("segment-") }.count >= 2)
        storage.arm(.error(.failed), on: .read, after: 1)
        try await tracker.flush()
        // A wait, not a measure of time: in the whole suite, tests that hold Swift's cooperative threads
        // have kept this tracker's sender from running for most of a minute.
        #expect(await tracker.waitUntilIdle(timeout: .seconds(180)))
        let statistics = tracker.statistics
        #expect(statistics.deliveryDiskErrors == 1, "\(statistics)")
        #expect(transport.delivered == tracked)
        _ = await tracker.shutdown(deadline: .seconds(5))
    }
}
