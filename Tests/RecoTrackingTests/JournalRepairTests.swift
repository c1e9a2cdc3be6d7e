import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// Repair (what a tracker or `recokit relay` does at open, and `recokit journal --repair`): a damaged
/// segment is written anew with the records still to deliver, whatever the damage's length and place,
/// and a fault at any moment of it loses nothing.
extension JournalFaultTests {
    /// What a read-only inspection of `storage` reports (the journal opened as `recokit journal` opens it).
    func inspect(_ storage: any JournalStorage) throws -> JournalRecoveryReport {
        let (journal, report) = try Journal.open(storage: storage, durability: .strict, maxBytes: 1 << 30, segmentBytes: 1 << 20, mode: .readOnly)
        journal.close()
        return report
    }

    /// Damaged journals for repair, in memory, each with what it still holds to deliver.
    enum DamagedJournal: CaseIterable, CustomStringConvertible {
        /// Events 1–15 over three segments as an older version and a crash left them: segment 1 in the
        /// legacy format (no header, no place check) with 4 stray bytes between events 4 and 5, too few
        /// for the padding record repair used to write; segment 2 with one byte of event 9 flipped;
        /// segment 3 with half of event 16, a torn tail. The checkpoint stands after event 2.
        case legacyFlippedAndTorn
        /// Events 1–8 in one segment, event 2 flipped (delivered already) and the checkpoint after event
        /// 4; records of one size, so the checkpoint's offset is also a record's offset once the segment is
        /// written anew with events 5–8 (events would be lost if the segment were rewritten before the
        /// checkpoint moved).
        case damageBeforeTheCheckpoint

        var description: String { self == .legacyFlippedAndTorn ? "legacy, flipped and torn" : "damage before the checkpoint" }

        var stillToDeliver: [String] {
            switch self {
            case .legacyFlippedAndTorn: ([3, 4, 5, 6, 7, 8] + Array(10...15)).map { "P-\($0)" }
            case .damageBeforeTheCheckpoint: (5...8).map { "P-\($0)" }
            }
        }

        /// How many damaged stretches it holds.
        var stretches: Int { self == .legacyFlippedAndTorn ? 3 : 1 }

        /// What may come again after a fault during repair: what was delivered before the checkpoint.
        var delivered: [String] { self == .legacyFlippedAndTorn ? ["P-1", "P-2"] : ["P-1", "P-3", "P-4"] }

        func disk(_ payload: (Int) -> [UInt8]) -> SimulatedDisk {
            var segments: [[UInt8]] = []
            var checkpoint: JournalPosition
            func frame(_ number: Int, segment: UInt64, in bytes: inout [UInt8], flip: Bool = false) {
                let start = bytes.count
                RecordFrame.append(payload(number), segment: segment, offset: start, to: &bytes)
                if flip { bytes[start + RecordFrame.headerSize + 5] ^= 0x08 }
            }
            switch self {
            case .legacyFlippedAndTorn:
                var first: [UInt8] = []
                checkpoint = JournalPosition(segment: 1, offset: 0)
                for number in 1...6 {
                    if number == 3 { checkpoint.offset = first.count }
                    if number == 5 { first += [0xDE, 0xAD, 0xBE, 0xEF] }
                    RecordFrame.appendLegacy(payload(number), to: &first)
                }
                var second = RecordFrame.segmentHeader
                for number in 7...12 { frame(number, segment: 2, in: &second, flip: number == 9) }
                var third = RecordFrame.segmentHeader
                for number in 13...15 { frame(number, segment: 3, in: &third) }
                var torn: [UInt8] = []
                RecordFrame.append(payload(16), segment: 3, offset: third.count, to: &torn)
                third += torn.prefix(torn.count / 2)
                segments = [first, second, third]
            case .damageBeforeTheCheckpoint:
                var only = RecordFrame.segmentHeader
                checkpoint = JournalPosition(segment: 1, offset: 0)
                for number in 1...8 {
                    if number == 5 { checkpoint.offset = only.count }
                    frame(number, segment: 1, in: &only, flip: number == 2)
                }
                segments = [only]
            }
            var disk = SimulatedDisk()
            for (index, bytes) in segments.enumerated() {
                disk.files[JournalState.fileName(UInt64(index + 1))] = SimulatedDisk.File(content: bytes, durable: bytes)
            }
            let saved = CheckpointFile.encode(checkpoint)
            disk.files[CheckpointFile.name] = SimulatedDisk.File(content: saved, durable: saved)
            return disk
        }
    }

    @Test func repairLeavesAJournalThatInspectsCleanWhateverItsDamage() throws {
        let damaged = DamagedJournal.legacyFlippedAndTorn
        let stillToDeliver = damaged.stillToDeliver
        let storage = FaultyStorage(disk: damaged.disk(payload), seed: 1)
        let seen = try inspect(storage)
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

        let after = try inspect(storage)
        #expect(after.damage.isEmpty, "\(after)")
        #expect(after.checkpointNote == nil)
        #expect(after.pendingEvents == stillToDeliver.count)
        let (delivering, _) = try open(storage)
        defer { delivering.close() }
        #expect(try drain(delivering) == stillToDeliver)
    }

    /// The process dies (or the disk fails) at each storage call of a repair in turn, then starts again:
    /// every event still to deliver is delivered, none but those, or those delivered before the
    /// checkpoint (duplicates, never loss: the checkpoint moves to the start of its segment before that
    /// segment is written anew), and the journal the second start leaves inspects clean.
    @Test(arguments: DamagedJournal.allCases, [FaultyStorage.Fault.crash, .error(.noSpace), .error(.failed)])
    func aFaultAtAnyCallOfARepairLosesNothing(journal damaged: DamagedJournal, fault: FaultyStorage.Fault) throws {
        let stillToDeliver = damaged.stillToDeliver
        var fired: [String] = []
        var callsSurvived = false
        for call in 0..<500 {
            let storage = FaultyStorage(disk: damaged.disk(payload), seed: UInt64(call))
            storage.arm(fault, on: nil, after: call)
            if let (journal, _) = try? open(storage) { journal.close() }
            guard !storage.fired.isEmpty else { callsSurvived = true; break }
            fired += storage.fired

            let restarted = FaultyStorage(disk: storage.disk.afterProcessCrash(), seed: UInt64(call))
            let (journal, report) = try open(restarted)
            let delivered = try drain(journal)
            journal.close()
            #expect(Set(delivered).isSuperset(of: stillToDeliver), "\(fault) at call \(call): delivered \(delivered); \(report)")
            #expect(Set(delivered).isSubset(of: damaged.delivered + stillToDeliver), "\(fault) at call \(call): delivered \(delivered)")
            let after = try inspect(restarted)
            #expect(after.damage.isEmpty && after.checkpointNote == nil, "\(fault) at call \(call): \(after)")
            // Each stretch kept once, whether or not the start that failed had quarantined it already.
            let kept = quarantineEntries(restarted).headers
            #expect(kept.count == damaged.stretches, "\(fault) at call \(call): \(kept)")
        }
        #expect(callsSurvived, "a repair of this journal made more than 500 storage calls")
        // The faults landed on the calls that matter: the checkpoint's and each damaged segment's rewrite.
        #expect(fired.filter { $0.hasSuffix("on replace") }.count == (damaged == .legacyFlippedAndTorn ? 4 : 2), "\(fired)")
    }

    /// Found by FuzzJournal (its input: `Fuzz/Corpus/FuzzJournal/found-short-stretch-after-repair.bin`): a segment
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

    /// Segments 1–4 of events 1–3, 4–6, 7–9 and 10–12, and one of them deleted (by hand, or lost by the file
    /// system). Segments are numbered one after another and none at or after the checkpoint's is deleted by
    /// the journal, so a missing one between two that exist is reported as damage naming it; repair notes
    /// it in quarantine and puts an empty segment in its place. One before the checkpoint's segment is no
    /// loss, and not reported.
    @Test(arguments: [(missing: UInt64(2), checkpointSegment: UInt64(1)), (missing: 3, checkpointSegment: 1), (missing: 2, checkpointSegment: 4)])
    func aMissingSegmentIsReportedNotSilentlyLost(missing: UInt64, checkpointSegment: UInt64) throws {
        var disk = SimulatedDisk()
        for segment: UInt64 in 1...4 where segment != missing {
            var bytes = RecordFrame.segmentHeader
            for number in (Int(segment) * 3 - 2)...(Int(segment) * 3) { RecordFrame.append(payload(number), segment: segment, offset: bytes.count, to: &bytes) }
            disk.files[JournalState.fileName(segment)] = SimulatedDisk.File(content: bytes, durable: bytes)
        }
        let checkpoint = CheckpointFile.encode(JournalPosition(segment: checkpointSegment, offset: 0))
        disk.files[CheckpointFile.name] = SimulatedDisk.File(content: checkpoint, durable: checkpoint)
        let expected = (Int(checkpointSegment) * 3 - 2...12).filter { ($0 + 2) / 3 != Int(missing) }.map { "P-\($0)" }
        let lost = missing >= checkpointSegment
        let storage = FaultyStorage(disk: disk, seed: 1)

        let seen = try inspect(storage)
        #expect(seen.damage.map(\.file) == (lost ? [JournalState.fileName(missing)] : []), "\(seen)")
        #expect(seen.damage.allSatisfy { $0.bytesSkipped == 0 && $0.description.contains("missing") })
        #expect(seen.pendingEvents == expected.count)
        let (journal, repaired) = try open(storage)
        #expect(repaired.damage == seen.damage)
        journal.close()
        if lost {
            let quarantine = try #require(storage.disk.files[JournalQuarantine.fileName]?.content)
            #expect(String(decoding: quarantine, as: UTF8.self).contains(JournalState.fileName(missing)))
        }
        let after = try inspect(storage)
        #expect(after.damage.isEmpty && after.checkpointNote == nil, "\(after)")
        let (delivering, _) = try open(storage)
        defer { delivering.close() }
        #expect(try drain(delivering) == expected)
    }

    /// A crash during a file's replacement leaves `NAME.new` (written, not yet renamed): the next repair
    /// deletes it, and nothing reads it.
    @Test func aReplacementCutShortLeavesNoFileBehindAfterRepair() throws {
        var disk = DamagedJournal.damageBeforeTheCheckpoint.disk(payload)
        let leftovers = [JournalState.fileName(1) + ".new", CheckpointFile.name + ".new", DeadLetterStore.fileName + ".new"]
        for name in leftovers { disk.files[name] = SimulatedDisk.File(content: [1, 2, 3], durable: [1, 2, 3]) }
        let storage = FaultyStorage(disk: disk, seed: 1)
        _ = try inspect(storage)
        #expect(leftovers.allSatisfy { storage.disk.files[$0] != nil }, "inspection changes nothing")
        let (journal, _) = try open(storage)
        defer { journal.close() }
        #expect(leftovers.allSatisfy { storage.disk.files[$0] == nil })
        #expect(try drain(journal) == DamagedJournal.damageBeforeTheCheckpoint.stillToDeliver)
    }
}
