import Foundation
import Testing
@testable import RecoTracking
import RecoKit
import RecoKitTesting

/// `quarantine.log` keeps each damaged stretch once, however often it is met: by the reader and then by
/// the next start's recovery, or by one start after another while the disk fails as repair writes.
extension JournalFaultTests {
    /// The header lines of the quarantine's entries, and how many of its bytes held no entry.
    func quarantineEntries(_ storage: FaultyStorage) -> (headers: [String], unreadable: Int) {
        let bytes = storage.disk.files[JournalQuarantine.fileName]?.content ?? []
        var headers: [String] = []
        let unread = RecordFrame.scan(bytes, segment: 0, from: 0, format: .version1) { _, entry in
            headers.append(String(decoding: entry.prefix { $0 != 10 }, as: UTF8.self))
        }
        return (headers, unread.reduce(0) { $0 + $1.count })
    }

    /// A byte flipped under a running journal: the reader quarantines the record it is in; the process dies
    /// before the batch is acknowledged; the next start meets the same damage and finds it kept already.
    @Test func damageMetWhileRunningIsKeptOnceAcrossARestart() throws {
        let storage = FaultyStorage(seed: 3)
        do {
            let (journal, _) = try open(storage)
            for number in 1...10 { _ = try journal.append(payload(number)) }
            try journal.commit()
            let segment = JournalState.fileName(1)
            var offsets: [Int] = []
            _ = RecordFrame.scan(try #require(storage.disk.files[segment]?.content), segment: 1, from: RecordFrame.segmentHeaderSize,
                                 format: .version2) { offset, _ in offsets.append(offset) }
            storage.flip(segment, offset: offsets[4] + 20, bit: 3)   // inside event 5
            let batch = try #require(try journal.take(maxCount: 50, maxBytes: 1 << 20, interval: .zero, force: true))
            #expect(try products(batch.payloads) == (1...10).filter { $0 != 5 }.map { "P-\($0)" })
            #expect(journal.damage.count == 1)
            #expect(quarantineEntries(storage).headers.count == 1)
            // Killed here: the batch is not acknowledged.
        }
        let restarted = FaultyStorage(disk: storage.disk.afterProcessCrash(), seed: 4)
        let (journal, report) = try open(restarted)
        #expect(report.damage.count == 1, "\(report)")
        #expect(try drain(journal) == (1...10).filter { $0 != 5 }.map { "P-\($0)" })
        journal.close()
        let entries = quarantineEntries(restarted)
        #expect(entries.headers.count == 1, "the same damage kept twice: \(entries.headers)")
        #expect(entries.unreadable == 0)
    }

    /// Starts that fail while repair writes a damaged segment anew (the disk failing each time): each
    /// quarantines before it writes, so without care each would keep the same damage again.
    @Test(arguments: DamagedJournal.allCases)
    func startsThatFailDuringRepairKeepTheDamageOnce(journal damaged: DamagedJournal) throws {
        var disk = damaged.disk(payload)
        for start in 1...4 {
            let storage = FaultyStorage(disk: disk, seed: UInt64(start))
            storage.arm(.error(.failed), on: .replace, after: 0, times: 100)
            #expect(throws: TrackingError.self, "start \(start) did not fail") { _ = try self.open(storage) }
            disk = storage.disk.afterProcessCrash()
        }
        let storage = FaultyStorage(disk: disk, seed: 9)
        let (journal, report) = try open(storage)
        #expect(try drain(journal) == damaged.stillToDeliver)
        journal.close()
        let entries = quarantineEntries(storage)
        #expect(entries.headers.count == report.damage.count, "\(report.damage.count) stretches, kept as \(entries.headers)")
        #expect(entries.unreadable == 0)
    }
}

extension JournalFaultTests {
    /// A process wrote the quarantine entry for a damaged record and died before its `sync`; the next
    /// start finds the entry already there and does not write it again, but it must make it durable
    /// before it writes the segment anew without those bytes: after a power loss they would be nowhere.
    @Test func aQuarantineEntryReliedOnIsMadeDurable() throws {
        var disk = SimulatedDisk()
        var bytes = segment(1, holding: 1...6)
        bytes[bytes.count - 20] ^= 0x40   // inside event 6
        disk.files[JournalState.fileName(1)] = .init(content: bytes, durable: bytes)
        // The entry as a start writes it (on a copy), then on the disk written but not synced.
        let copy = FaultyStorage(disk: disk, seed: 1)
        let (repaired, _) = try open(copy)
        repaired.close()
        let entry = try #require(copy.disk.files[JournalQuarantine.fileName]?.content)
        disk.files[JournalQuarantine.fileName] = .init(content: entry, durable: [])

        let storage = FaultyStorage(disk: disk, seed: 2)
        let (journal, report) = try open(storage)
        #expect(report.damage.count == 1)
        journal.close()
        #expect(quarantineEntries(storage).headers.count == 1)
        let quarantine = try #require(storage.disk.files[JournalQuarantine.fileName])
        #expect(quarantine.durable == quarantine.content, "the entry relied on is not durable")
    }
}

extension JournalFaultTests {
    /// The quarantine grows with every stretch of damage met, and adding to it is read a window at a time:
    /// a log of 300 entries (stretches of 1 byte to 5 KB), then a call with stretches it holds already
    /// (whole, or inside a kept one), new ones, and one new one twice: only the new ones are added, once,
    /// and no read of the log is larger than the window or twice its longest entry.
    @Test(arguments: [1, 40, 1_000, 1 << 40])
    func addingToALargeQuarantineReadsItAWindowAtATime(window: Int) throws {
        let seed = 0x0A7A_0000 + UInt64(window % 977)
        var random = SeededRandom(seed: seed)
        let base = FaultyStorage(seed: 8)
        var kept: [JournalQuarantine.Entry] = []
        for number in 0..<300 {
            let count = Int.random(in: 0..<10, using: &random) == 0 ? Int.random(in: 1_000...5_000, using: &random) : Int.random(in: 1...80, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let entry = JournalQuarantine.Entry(file: JournalState.fileName(UInt64(1 + number % 7)), offset: number * 10_000, bytes: bytes[...],
                                                reason: "checksum mismatch")
            kept.append(entry)
        }
        try JournalQuarantine.add(kept, to: base)
        let before = quarantineEntries(base).headers.count
        #expect(before == 300)
        let storage = DeadLetterRequeueTests.ReadRecordingStorage(base, file: JournalQuarantine.fileName)
        let held = kept[17]
        let wide = try #require(kept.dropFirst(200).first { $0.bytes.count >= 3 })
        let inside = JournalQuarantine.Entry(file: wide.file, offset: wide.offset + 1, bytes: wide.bytes.dropFirst().dropLast(),
                                             reason: "a record runs past the end")
        let new = JournalQuarantine.Entry(file: JournalState.fileName(9), offset: 12, bytes: [1, 2, 3][...], reason: "checksum mismatch")
        let elsewhere = JournalQuarantine.Entry(file: held.file, offset: held.offset + 1, bytes: held.bytes, reason: "checksum mismatch")
        try JournalQuarantine.add([held, inside, new, elsewhere, new], to: storage, window: window)
        let after = quarantineEntries(base)
        #expect(after.headers.count == before + 2, "seed \(seed): \(after.headers.suffix(4))")
        #expect(after.unreadable == 0)
        let longest = kept.map { $0.bytes.count }.max()! + 200   // an entry's header line and frame
        if window < 1 << 40 {
            #expect(storage.largestRead <= max(window, 2 * longest), "seed \(seed), window \(window): read \(storage.largestRead) bytes at once")
        }
    }
}

extension JournalFaultTests {
    /// Damage met while running whose bytes the disk fails to read for quarantine: the reader stops before
    /// it with the disk's error and passes nothing; read again once the disk reads, the damaged bytes are
    /// kept whole and the batch holds the records around them. The entry was written without its bytes
    /// (`"bytes":0`, the damaged bytes gone unseen) and the reader passed the damage.
    @Test func damageWhoseBytesCannotBeReadIsNotPassed() throws {
        let storage = FaultyStorage(seed: 5)
        let (journal, _) = try open(storage)
        for number in 1...10 { _ = try journal.append(payload(number)) }
        try journal.commit()
        let segment = JournalState.fileName(1)
        var offsets: [Int] = []
        _ = RecordFrame.scan(try #require(storage.disk.files[segment]?.content), segment: 1, from: RecordFrame.segmentHeaderSize,
                             format: .version2) { offset, _ in offsets.append(offset) }
        storage.flip(segment, offset: offsets[4] + 20, bit: 3)   // inside event 5
        // The reader's read of the segment goes through; quarantine's read of the damaged stretch fails.
        storage.arm(.error(.failed), on: .read, file: segment, after: 1)
        #expect(throws: TrackingError.self) { try journal.take(maxCount: 50, maxBytes: 1 << 20, interval: .zero, force: true) }
        #expect(storage.fired == ["error(EIO) on read"])
        #expect(quarantineEntries(storage).headers.isEmpty)
        let batch = try #require(try journal.take(maxCount: 50, maxBytes: 1 << 20, interval: .zero, force: true))
        #expect(try products(batch.payloads) == (1...10).filter { $0 != 5 }.map { "P-\($0)" })
        let headers = quarantineEntries(storage).headers
        #expect(headers.count == 1)
        let kept = try headers.first.map { try JSONValue(parsing: Data($0.utf8))["bytes"]?.intValue }
        #expect(kept == offsets[5] - offsets[4], "\(headers)")
        journal.close()
    }
}
