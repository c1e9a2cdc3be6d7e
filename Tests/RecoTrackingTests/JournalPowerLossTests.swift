import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// What a power loss in the middle of an append leaves. The file system may have grown the file for the
/// append and written only its first blocks (or none), so the rest reads as zeros (ext4 with delayed
/// allocation, XFS): a torn tail, like a file that simply ends within a record. Nothing in it was ever
/// durable, so it is reported as an interrupted write (which `recokit relay` does not count against
/// acknowledged lines), while damage that unwritten blocks cannot explain is still reported as damage.
extension JournalFaultTests {
    /// Events 1–5 in segment 1, durable; then what the power loss left of an append.
    enum PowerLossTail: CaseIterable, CustomStringConvertible {
        /// Events 6–12 appended, written up to a block boundary inside one of them, zeros after.
        case blocksWrittenUpToOneInsideARecord
        /// Events 6–12 appended, none of their blocks written: zeros from the end of event 5 on.
        case noBlockWritten
        /// A new segment 2 none of whose blocks was written: nothing but zeros.
        case aNewSegmentOfZeros
        /// A new segment 2 with events 6–12, written up to a block boundary inside one of them.
        case aNewSegmentWrittenUpToABoundaryInsideARecord

        var description: String {
            switch self {
            case .blocksWrittenUpToOneInsideARecord: "blocks written up to one inside a record"
            case .noBlockWritten: "no block of the append written"
            case .aNewSegmentOfZeros: "a new segment of zeros"
            case .aNewSegmentWrittenUpToABoundaryInsideARecord: "a new segment written up to a boundary inside a record"
            }
        }
    }

    /// A segment in the current format holding `events`.
    func segment(_ number: UInt64, holding events: ClosedRange<Int>) -> [UInt8] {
        appending(events, to: RecordFrame.segmentHeader, of: number).bytes
    }

    /// `bytes` of segment `number` with the frames of `events` after them, and where each frame ends.
    func appending(_ events: ClosedRange<Int>, to bytes: [UInt8], of number: UInt64) -> (bytes: [UInt8], ends: [Int]) {
        var bytes = bytes
        var ends: [Int] = []
        for event in events {
            RecordFrame.append(payload(event), segment: number, offset: bytes.count, to: &bytes)
            ends.append(bytes.count)
        }
        return (bytes, ends)
    }

    /// `bytes` written up to the first block boundary after `start` that falls inside a frame (not at one's
    /// end), zeros after; and how many of the frames ending at `ends` lie whole before it.
    func writtenUpToABoundaryInsideAFrame(_ bytes: [UInt8], after start: Int, ends: [Int]) -> (bytes: [UInt8], whole: Int) {
        let block = RecordFrame.blockSize
        var boundary = (start / block + 1) * block
        while ends.contains(boundary) { boundary += block }
        precondition(boundary < bytes.count, "the append is too short to hold a block boundary inside a frame")
        return (Array(bytes.prefix(boundary)) + [UInt8](repeating: 0, count: bytes.count - boundary), ends.filter { $0 <= boundary }.count)
    }

    func disk(_ segments: [UInt64: [UInt8]]) -> FaultyStorage {
        var disk = SimulatedDisk()
        for (number, bytes) in segments { disk.files[JournalState.fileName(number)] = .init(content: bytes, durable: bytes) }
        return FaultyStorage(disk: disk, seed: 1)
    }

    @Test(arguments: PowerLossTail.allCases)
    func unwrittenBlocksAPowerLossLeftAreATornTail(_ tail: PowerLossTail) throws {
        var first = segment(1, holding: 1...5)
        var second: [UInt8]?
        var survivors = 5
        switch tail {
        case .blocksWrittenUpToOneInsideARecord:
            let (grown, ends) = appending(6...12, to: first, of: 1)
            let cut = writtenUpToABoundaryInsideAFrame(grown, after: first.count, ends: ends)
            first = cut.bytes
            survivors += cut.whole
        case .noBlockWritten:
            first += [UInt8](repeating: 0, count: appending(6...12, to: first, of: 1).bytes.count - first.count)
        case .aNewSegmentOfZeros:
            second = [UInt8](repeating: 0, count: segment(2, holding: 6...12).count)
        case .aNewSegmentWrittenUpToABoundaryInsideARecord:
            let (grown, ends) = appending(6...12, to: RecordFrame.segmentHeader, of: 2)
            let cut = writtenUpToABoundaryInsideAFrame(grown, after: RecordFrame.segmentHeaderSize, ends: ends)
            second = cut.bytes
            survivors += cut.whole
        }
        let storage = disk(second.map { [1: first, 2: $0] } ?? [1: first])

        let inspected = try inspect(storage)
        #expect(inspected.damage.count == 1, "\(inspected)")
        for damage in inspected.damage {
            #expect(damage.isInterruptedWrite, "unwritten blocks reported as damage that may have cost durable events: \(damage)")
        }
        #expect(inspected.pendingEvents == survivors)

        let (journal, report) = try open(storage)
        #expect(report.damage == inspected.damage)
        #expect(try drain(journal) == (1...survivors).map { "P-\($0)" })
        journal.close()
        let after = try inspect(storage)
        #expect(after.damage.isEmpty, "still damaged after repair: \(after)")
    }

    /// Damage at the end that unwritten blocks do not explain stays damage: the last record whole but for
    /// a flipped byte, zeros inside the last record, a byte after zeros, or zeros that begin inside a
    /// block, after part of a record.
    @Test func damageAtTheEndThatUnwrittenBlocksDoNotExplainIsNotATornTail() throws {
        let intact = segment(1, holding: 1...5)
        let lastPayload = intact.count - payload(5).count
        var flipped = intact
        flipped[lastPayload + 10] ^= 0x20
        var zeroedInside = intact
        for offset in (lastPayload + 4)..<(lastPayload + 24) { zeroedInside[offset] = 0 }
        let byteAfterZeros = intact + [UInt8](repeating: 0, count: 64) + [0x7E]
        let (grown, _) = appending(6...6, to: intact, of: 1)
        let zerosInsideABlock = Array(grown.prefix(intact.count + 30)) + [UInt8](repeating: 0, count: grown.count - intact.count - 30)
        precondition((intact.count + 30) % RecordFrame.blockSize != 0)

        for (name, bytes) in [("a flipped byte in the last record", flipped), ("zeros inside the last record", zeroedInside),
                              ("a byte after zeros", byteAfterZeros), ("zeros from inside a block, after part of a record", zerosInsideABlock)] {
            let report = try inspect(disk([1: bytes]))
            #expect(report.damage.count == 1, "\(name): \(report)")
            #expect(report.damage.allSatisfy { !$0.isInterruptedWrite }, "\(name) taken for an interrupted write: \(report)")
        }
    }
}
