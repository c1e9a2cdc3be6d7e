import Foundation
import Testing
import RecoKitTesting
@testable import RecoTracking
import RecoKit

@Suite("Journal: checksummed records, recovery, checkpoint, limits")
struct JournalTests {
    func payload(_ number: Int) -> [UInt8] {
        EventCodec.encode(TrackedEvent(id: EventID(run: 77, sequence: UInt64(number)), interaction: Fixtures.click("P-\(number)")))
    }

    func products(_ batch: JournalBatch?) throws -> [String] {
        try (batch?.payloads ?? []).map { try EventCodec.decode($0).interaction.productId ?? "" }
    }

    func open(_ directory: URL, maxBytes: Int = 1 << 30, segmentBytes: Int = 1 << 20) throws -> (Journal, JournalRecoveryReport) {
        try Journal.open(storage: FileJournalStorage(directory: directory), durability: .strict, maxBytes: maxBytes, segmentBytes: segmentBytes)
    }

    func segmentPath(_ journal: Journal) -> String {
        (journal.storage as! FileJournalStorage).path(JournalState.fileName(journal.withState { $0.segments.last { $0.exists }!.number }))
    }

    func segmentCount(_ journal: Journal) throws -> Int {
        try journal.storage.list().filter { JournalState.segmentNumber($0) != nil }.count
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        // Every length around the 8-byte stride and the 16-byte blocks the processor's instructions fold (from
        // 16 bytes on, a last block shorter than 16 too), at every alignment and after any earlier checksum,
        // agrees with the bit-by-bit definition; so do a few long buffers.
        let seed = ProcessInfo.processInfo.environment["RECOKIT_CRC_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("crc32MatchesTheStandardCheckValue seed: \(seed) (replay: RECOKIT_CRC_SEED=\(seed) swift test --filter crc32Matches); "
              + "processor instructions: \(CRC32.usesProcessorInstructions)")
        var random = SeededRandom(seed: seed)
        let pool = (0..<5_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let lengths = Array(0..<80) + (0..<12).map { _ in Int.random(in: 80...4_900, using: &random) }
        for length in lengths {
            for start in 0..<8 {
                let bytes = pool[start..<(start + length)]
                let previous = length % 3 == 0 ? 0 : UInt32.random(in: 0...UInt32.max, using: &random)
                var reference: UInt32 = ~previous
                for byte in bytes {
                    reference ^= UInt32(byte)
                    for _ in 0..<8 { reference = reference & 1 == 1 ? (reference >> 1) ^ 0xEDB8_8320 : reference >> 1 }
                }
                #expect(CRC32.checksum(bytes, continuing: previous) == reference ^ 0xFFFF_FFFF, "length \(length) at \(start), seed \(seed)")
            }
        }
    }

    @Test func eventsRoundTripThroughTheBinaryForm() throws {
        var context = Fixtures.context
        context.testMode = false
        context.params = ["campaign": "summer", "rank": 3]
        let interaction = Interaction(kind: .searchClick, instanceId: "", interactionId: "", productId: "240-LV09", position: 4,
                                      searchPhase: .search, context: context, occurred: Date(timeIntervalSince1970: 1_714_566_896.123),
                                      forcePush: true)
        let event = TrackedEvent(id: EventID(run: 0xDEAD_BEEF, sequence: 99), interaction: interaction)
        #expect(try EventCodec.decode(EventCodec.encode(event)[...]) == event)
    }

    @Test func pendingEventsSurviveReopening() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (journal, _) = try open(directory)
            for number in 1...10 { _ = try journal.append(payload(number)) }
            try journal.commit()
            journal.close()
        }
        let (journal, report) = try open(directory)
        defer { journal.close() }
        #expect(report.pendingEvents == 10)
        #expect(report.damage.isEmpty)
        let batch = try journal.take(maxCount: 100, maxBytes: 1 << 20, interval: .zero, force: true)
        #expect(try products(batch) == (1...10).map { "P-\($0)" })
    }

    @Test func aTornTailIsCutOffAndReported() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let segmentPath: String
        let segment: UInt64
        do {
            let (journal, _) = try open(directory)
            for number in 1...5 { _ = try journal.append(payload(number)) }
            try journal.commit()
            segmentPath = self.segmentPath(journal)
            segment = journal.withState { $0.segments.last { $0.exists }!.number }
            journal.close()
        }
        // A write interrupted by a crash: the first 30 bytes of the next record's frame.
        let handle = try #require(FileHandle(forWritingAtPath: segmentPath))
        let end = handle.seekToEndOfFile()
        var frame = [UInt8]()
        RecordFrame.append(payload(99), segment: segment, offset: Int(end), to: &frame)
        handle.write(Data(frame.prefix(30)))
        try handle.close()
        let (journal, report) = try open(directory)
        #expect(report.pendingEvents == 5)
        #expect(report.damage.count == 1)
        #expect(report.damage.first?.bytesSkipped == 30)
        #expect(report.damage.first?.reason.contains("torn") == true)
        _ = try journal.append(payload(6))
        try journal.commit()
        // The recovered segment's records, then the new segment's (a batch reads from one segment).
        let first = try journal.take(maxCount: 100, maxBytes: 1 << 20, interval: .zero, force: true)
        let second = try journal.take(maxCount: 100, maxBytes: 1 << 20, interval: .zero, force: true)
        #expect(try products(first) + products(second) == ["P-1", "P-2", "P-3", "P-4", "P-5", "P-6"])
        journal.close()
    }

    @Test func aCorruptRecordIsDetectedByItsChecksum() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let segmentPath: String
        let recordSize = payload(1).count + RecordFrame.headerSize
        let start = RecordFrame.segmentHeaderSize
        do {
            let (journal, _) = try open(directory)
            for number in 1...4 { _ = try journal.append(payload(number)) }
            try journal.commit()
            segmentPath = self.segmentPath(journal)
            journal.close()
        }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segmentPath)))
        bytes[start + 2 * recordSize + 30] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: segmentPath))
        let (journal, report) = try open(directory)
        defer { journal.close() }
        // Only the damaged record is lost: the scan finds the next valid frame after it.
        #expect(report.pendingEvents == 3)
        #expect(report.damage.first?.offset == start + 2 * recordSize)
        #expect(report.damage.first?.bytesSkipped == recordSize)
        #expect(report.damage.first?.reason.contains("checksum") == true)
        let batch = try journal.take(maxCount: 100, maxBytes: 1 << 20, interval: .zero, force: true)
        #expect(try products(batch) == ["P-1", "P-2", "P-4"])
    }

    @Test func acknowledgedEventsAreForgottenAndSegmentsDeleted() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let (journal, _) = try open(directory, segmentBytes: 4096)
            for number in 1...300 {
                _ = try journal.append(payload(number))
                try journal.commit()
            }
            try journal.commit()
            #expect(try segmentCount(journal) > 5)
            // Out of order: the second batch is acknowledged first.
            let first = try #require(try journal.take(maxCount: 100, maxBytes: 1 << 20, interval: .zero, force: true))
            let second = try #require(try journal.take(maxCount: 100, maxBytes: 1 << 20, interval: .zero, force: true))
            journal.acknowledge(second)
            #expect(journal.checkpoint == first.start)
            journal.acknowledge(first)
            #expect(journal.pendingCount == 100)
            journal.close()
        }
        let (journal, report) = try open(directory, segmentBytes: 4096)
        defer { journal.close() }
        #expect(report.pendingEvents == 100)
        let rest = try journal.take(maxCount: 1000, maxBytes: 1 << 20, interval: .zero, force: true)
        #expect(try products(rest) == (201...300).map { "P-\($0)" })
        journal.acknowledge(try #require(rest))
        #expect(try segmentCount(journal) <= 2)
    }

    @Test func aFullJournalRefusesAndCounts() async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = TrackerSetup(journal: directory, durability: .strict)
        configuration.maxJournalBytes = 16 * 1024
        configuration.flushInterval = .seconds(3600)
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, transport: ScriptedTransport([]))
        var accepted = 0
        var refused = 0
        for number in 1...400 {
            do {
                try tracker.track(Fixtures.click("P-\(number)"))
                accepted += 1
            } catch {
                #expect(error.isQueueFull)
                refused += 1
            }
        }
        #expect(accepted > 10)
        #expect(refused > 0)
        #expect(tracker.statistics.refusedQueueFull == refused)
        #expect(tracker.statistics.journalBytes <= 16 * 1024)
        _ = await tracker.shutdown(deadline: .zero)
    }

    @Test func deadLettersAreListedAndRequeuedWithTheirIds() async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = TrackerSetup(journal: directory, durability: .strict)
        configuration.flushInterval = .milliseconds(1)
        let refusing = ScriptedTransport([.reply(VendorReply(status: 422, body: Data("unknown product".utf8)))])
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, transport: refusing)
        let id = try tracker.track(Fixtures.click("240-LV09"))
        await tracker.waitUntilDelivered()
        let summary = await tracker.shutdown(deadline: .seconds(1))
        #expect(summary.deadLettered == 1)
        let contents = try JournalDirectory.inspect(directory)
        #expect(contents.pending == 0)
        #expect(contents.deadLetters.map(\.event.id) == [id])
        #expect(contents.deadLetters.first?.reason == "HTTP 422: unknown product")
        #expect(try JournalDirectory.requeue(directory) == 1)
        let after = try JournalDirectory.inspect(directory)
        #expect(after.pending == 1)
        #expect(after.deadLetters.isEmpty)
        let accepting = ScriptedTransport([])
        let second = try Tracker(destination: CountingDestination(), configuration: configuration, transport: accepting)
        await second.waitUntilDelivered()
        _ = await second.shutdown(deadline: .seconds(1))
        #expect(accepting.requests.count == 1)
        #expect(String(decoding: accepting.requests[0].body, as: UTF8.self) == id.description)
    }
}

/// A destination whose body is the events' ids, one a line.
struct CountingDestination: TrackingDestination {
    var name: String { "counting" }
    var limits: DestinationLimits { DestinationLimits(maxEvents: 100, maxBytes: 1 << 20) }
    func validate(_ interaction: Interaction) throws(InteractionError) {}
    func request(for records: [EventRecord]) -> VendorRequest {
        VendorRequest(url: URL(string: "http://127.0.0.1:9/events")!, headers: [],
                      body: Data(records.map(\.id.description).joined(separator: "\n").utf8))
    }
}

extension JournalTests {
    /// The file store's `replace` writes what it is given, however little: nothing (a file emptied) and a
    /// few megabytes (a large segment written anew), each read back whole.
    @Test func replacingAFileWritesAllItIsGiven() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let storage = FileJournalStorage(directory: directory)
        defer { storage.close() }
        let large = (0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for (name, bytes) in [("empty", [UInt8]()), ("large", large)] {
            _ = try storage.append(name, [1, 2, 3][...])
            try storage.replace(name, with: bytes, durable: true)
            #expect(try storage.size(name) == bytes.count, "\(name)")
            #expect(try storage.read(name, offset: 0, count: bytes.count + 1) == bytes, "\(name)")
        }
    }
}
