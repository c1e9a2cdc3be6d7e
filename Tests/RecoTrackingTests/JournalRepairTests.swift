import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// Repair (what a tracker or `recokit relay` does at open, and `recokit journal --repair`): a damaged
/// segment is written anew with the records still to deliver, whatever the damage's length and place,
/// and a fault at any moment of it loses nothing.
extension JournalFaultTests {
    /// Events 1–15 over three segments as an older version and a crash left them, in memory: segment 1
    /// in the legacy format (no header, no place check) with 4 stray bytes between events 4 and 5, too few
    /// for the padding record repair used to write; segment 2 with one byte of event 9 flipped; segment 3
    /// with half of event 16, a torn tail. The checkpoint stands after event 2.
    func damagedJournal() -> SimulatedDisk {
        var first: [UInt8] = []
        var checkpoint = 0
        for number in 1...6 {
            if number == 3 { checkpoint = first.count }
            if number == 5 { first += [0xDE, 0xAD, 0xBE, 0xEF] }
            RecordFrame.appendLegacy(payload(number), to: &first)
        }
        var second = RecordFrame.segmentHeader
        for number in 7...12 {
            if number == 9 {
                let start = second.count
                RecordFrame.append(payload(number), segment: 2, offset: start, to: &second)
                second[start + RecordFrame.headerSize + 5] ^= 0x08
            } else {
                RecordFrame.append(payload(number), segment: 2, offset: second.count, to: &second)
            }
        }
        var third = RecordFrame.segmentHeader
        for number in 13...15 { RecordFrame.append(payload(number), segment: 3, offset: third.count, to: &third) }
        var torn: [UInt8] = []
        RecordFrame.append(payload(16), segment: 3, offset: third.count, to: &torn)
        third += torn.prefix(torn.count / 2)
        var disk = SimulatedDisk()
        for (name, bytes) in [(JournalState.fileName(1), first), (JournalState.fileName(2), second), (JournalState.fileName(3), third),
                              (CheckpointFile.name, CheckpointFile.encode(JournalPosition(segment: 1, offset: checkpoint)))] {
            disk.files[name] = SimulatedDisk.File(content: bytes, durable: bytes)
        }
        return disk
    }

    /// What `damagedJournal()` holds to deliver: everything after the checkpoint but the damaged records.
    var stillToDeliver: [String] { ([3, 4, 5, 6, 7, 8] + Array(10...15)).map { "P-\($0)" } }

    @Test func repairLeavesAJournalThatInspectsCleanWhateverItsDamage() throws {
        let storage = FaultyStorage(disk: damagedJournal(), seed: 1)
        let (inspected, seen) = try Journal.open(storage: storage, durability: .strict, maxBytes: 1 << 30, segmentBytes: 1 << 20, mode: .readOnly)
        inspected.close()
        #expect(seen.damage.map(\.file) == [1, 2, 3].map(JournalState.fileName))
        #expect(seen.damage.first?.bytesSkipped == 4)
        #expect(seen.pendingEvents == stillToDeliver.count)

        let (journal, repaired) = try open(storage)
        #expect(repaired.damage == seen.damage)
        #expect(repaired.pendingEvents == stillToDeliver.count)
        journal.close()
        // Every segment is now in the current format, with its header; the quarantine has each stretch.
        for number: UInt64 in 1...3 {
            let bytes = try #require(storage.disk.files[JournalState.fileName(number)]?.content)
            #expect(RecordFrame.format(of: bytes, segment: number) == (.version2, RecordFrame.segmentHeaderSize, false))
        }
        let quarantine = try #require(storage.disk.files[JournalQuarantine.fileName]?.content)
        var entries: [String] = []
        let unread = RecordFrame.scan(quarantine, segment: 0, from: 0, format: .version1) { _, entry in
            entries.append(String(decoding: entry.prefix { $0 != 10 }, as: UTF8.self))
        }
        #expect(unread.isEmpty && entries.count == 3, "\(entries)")
        #expect(zip(entries, [1, 2, 3]).allSatisfy { $0.contains(JournalState.fileName($1)) }, "\(entries)")

        let (again, after) = try Journal.open(storage: storage, durability: .strict, maxBytes: 1 << 30, segmentBytes: 1 << 20, mode: .readOnly)
        again.close()
        #expect(after.damage.isEmpty, "\(after)")
        #expect(after.checkpointNote == nil)
        #expect(after.pendingEvents == stillToDeliver.count)
        let (delivering, _) = try open(storage)
        defer { delivering.close() }
        #expect(try drain(delivering) == stillToDeliver)
    }

    /// The process dies (or the disk fails) at each storage call of a repair in turn, then starts again:
    /// every event still to deliver is delivered, none that was not appended, and the journal the second
    /// start leaves inspects clean. Events 1 and 2 may come again (duplicates, never loss): the checkpoint
    /// moves to the start of its segment before that segment is written anew.
    @Test(arguments: [FaultyStorage.Fault.crash, .error(.noSpace), .error(.failed)])
    func aFaultAtAnyCallOfARepairLosesNothing(fault: FaultyStorage.Fault) throws {
        var fired: [String] = []
        var callsSurvived = false
        for call in 0..<500 {
            let storage = FaultyStorage(disk: damagedJournal(), seed: UInt64(call))
            storage.arm(fault, on: nil, after: call)
            if let (journal, _) = try? open(storage) { journal.close() }
            guard !storage.fired.isEmpty else { callsSurvived = true; break }
            fired += storage.fired

            let restarted = FaultyStorage(disk: storage.disk.afterProcessCrash(), seed: UInt64(call))
            let (journal, report) = try open(restarted)
            let delivered = try drain(journal)
            journal.close()
            #expect(Set(delivered).isSuperset(of: stillToDeliver), "\(fault) at call \(call): delivered \(delivered); \(report)")
            #expect(Set(delivered).isSubset(of: ["P-1", "P-2"] + stillToDeliver), "\(fault) at call \(call): delivered \(delivered)")
            let (inspected, after) = try Journal.open(storage: restarted, durability: .strict, maxBytes: 1 << 30, segmentBytes: 1 << 20, mode: .readOnly)
            inspected.close()
            #expect(after.damage.isEmpty && after.checkpointNote == nil, "\(fault) at call \(call): \(after)")
        }
        #expect(callsSurvived, "a repair of this journal made more than 500 storage calls")
        // The faults landed on the calls that matter: the checkpoint's and the segments' rewrites.
        #expect(fired.filter { $0.hasSuffix("on replace") }.count >= 4, "\(fired)")
    }

    /// Found by FuzzJournal (its input: `Fuzz/Findings/FuzzJournal-short-stretch-after-repair`): a segment
    /// whose header is overwritten so that it reads as the legacy format, where 4 garbage bytes stand
    /// before a frame that validates (here a forged one: the header's own bytes and checksum, shifted).
    /// Repair used to cover damage with a padding record, which needs at least 9 bytes, so it left the 4
    /// in place and every later open reported them again.
    @Test func aStretchTooShortForPaddingIsGoneAfterRepair() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // "URNL" (4 bytes of the mark), then a legacy frame (length 12, CRC-32) over the 12 bytes a
        // version-2 header's checksum covers, with that very checksum.
        let covered = Array(RecordFrame.segmentHeader[0..<12])
        var segment = Array(covered[4..<8])
        withUnsafeBytes(of: UInt32(covered.count).littleEndian) { segment += $0 }
        withUnsafeBytes(of: CRC32.checksum(covered).littleEndian) { segment += $0 }
        segment += covered
        try Data(segment).write(to: directory.appendingPathComponent("segment-000000000003.log"))
        let before = try JournalDirectory.inspect(directory)
        #expect(before.recovery.damage.map(\.byteRange) == [0..<4])
        let repaired = try JournalDirectory.repair(directory)
        #expect(repaired.pending == before.pending)
        let after = try JournalDirectory.inspect(directory)
        #expect(after.pending == before.pending)
        #expect(after.recovery.damage.isEmpty, "\(after.recovery)")
    }

    /// Journals repaired by earlier versions hold padding records where damage was: read as no events
    /// and no damage, and a checkpoint may name one (in both formats).
    @Test(arguments: [RecordFrame.Format.version1, .version2])
    func paddingAnEarlierRepairWroteIsSkippedAndIsARecordBoundary(format: RecordFrame.Format) throws {
        var bytes = format == .version2 ? RecordFrame.segmentHeader : []
        func add(_ payload: [UInt8]) {
            if format == .version2 { RecordFrame.append(payload, segment: 1, offset: bytes.count, to: &bytes) } else { RecordFrame.appendLegacy(payload, to: &bytes) }
        }
        add(payload(1))
        let padding = bytes.count
        bytes += RecordFrame.padding(count: 40, segment: 1, offset: padding, format: format)
        add(payload(2))
        var disk = SimulatedDisk()
        for (name, content) in [(JournalState.fileName(1), bytes), (CheckpointFile.name, CheckpointFile.encode(JournalPosition(segment: 1, offset: padding)))] {
            disk.files[name] = SimulatedDisk.File(content: content, durable: content)
        }
        let storage = FaultyStorage(disk: disk, seed: 1)
        let (journal, report) = try open(storage)
        defer { journal.close() }
        #expect(report.damage.isEmpty && report.checkpointNote == nil, "\(report)")
        #expect(report.pendingEvents == 1)
        #expect(try drain(journal) == ["P-2"])
    }
}
