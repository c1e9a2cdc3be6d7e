import Foundation
import Testing
import RecoKitTesting
@testable import RecoTracking

/// Damaged version-1 frames (legacy segments, dead letters) are resynchronised with checksums taken from
/// prefix sums (`StretchChecksums`) instead of checksumming up to 4 MiB per candidate offset. Before, a
/// 4 MiB segment of random bytes took 29 s to inspect (debug build; thousands of checksummed bytes per byte
/// scanned). These tests hold the fast path to the plain checksum and the plain scan, byte for byte.
@Suite("Stretch checksums: a version-1 scan over damage finds what a plain scan finds")
struct StretchChecksumTests {
    static let seed: UInt64 = {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_STRETCH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("StretchChecksumTests seed: \(seed) (replay: RECOKIT_STRETCH_SEED=\(seed) swift test --filter StretchChecksumTests)")
        return seed
    }()

    @Test func knownValues() {
        let digits = Array("123456789".utf8)
        #expect(StretchChecksums(digits).checksum(of: 0..<9) == 0xCBF4_3926)
        // x^(8·0) is 1: shifting by no bytes changes nothing; the empty stretch sums to 0.
        #expect(CRC32.shift(0xCBF4_3926, byBytes: 0) == 0xCBF4_3926)
        #expect(StretchChecksums(digits).checksum(of: 4..<4) == 0)
    }

    @Test func everyStretchSumsAsThePlainChecksum() {
        var random = SeededRandom(seed: Self.seed)
        let bytes = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let sums = StretchChecksums(bytes)
        var mismatches: [Range<Int>] = []
        for round in 0..<600 {
            // Short stretches (checksummed directly), long ones (from prefixes), and ones on block edges.
            let length = round % 3 == 0 ? Int.random(in: 0..<StretchChecksums.directBelow, using: &random)
                : round % 3 == 1 ? Int.random(in: StretchChecksums.directBelow...bytes.count, using: &random)
                : StretchChecksums.stride * Int.random(in: 16...(bytes.count / StretchChecksums.stride), using: &random)
            let start = round % 6 == 2 ? StretchChecksums.stride * Int.random(in: 0...((bytes.count - length) / StretchChecksums.stride), using: &random)
                : Int.random(in: 0...(bytes.count - length), using: &random)
            let range = start..<(start + length)
            if sums.checksum(of: range) != CRC32.checksum(bytes[range]) { mismatches.append(range) }
        }
        #expect(mismatches.isEmpty, "RECOKIT_STRETCH_SEED=\(Self.seed): \(mismatches.prefix(3))")
    }

    @Test func checksumsCombineAsConcatenation() {
        var random = SeededRandom(seed: Self.seed &+ 1)
        for _ in 0..<200 {
            let a = (0..<Int.random(in: 0...9_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let b = (0..<Int.random(in: 0...9_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(CRC32.shift(CRC32.checksum(a), byBytes: b.count) ^ CRC32.checksum(b) == CRC32.checksum(a + b),
                    "RECOKIT_STRETCH_SEED=\(Self.seed): \(a.count) + \(b.count) bytes")
        }
    }

    /// Random bytes with valid version-1 frames (short and long, up to 70 KB) among them: the scan finds
    /// the same records and bad stretches as one that checks every offset with plain checksums.
    @Test func aScanOverDamageMatchesThePlainScan() {
        var random = SeededRandom(seed: Self.seed &+ 2)
        for round in 0..<12 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                bytes += (0..<Int.random(in: 0...20_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                let length = [1, 300, 5_000, 70_000][Int.random(in: 0..<4, using: &random)]
                RecordFrame.appendLegacy([1] + (1..<length).map { _ in UInt8.random(in: 0...255, using: &random) }, to: &bytes)
            }
            if round % 2 == 0 {  // a candidate whose length fits, with a wrong checksum, at a random place
                let at = Int.random(in: 0..<(bytes.count - 8), using: &random)
                let length = UInt32(Int.random(in: 1...(bytes.count - at - 8), using: &random))
                withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(at..<(at + 4), with: $0) }
            }
            expectTheScanFindsWhatThePlainScanFinds(bytes, round: round)
        }
    }

    @Test func aChecksumContinuingAPlaceIsItsShiftAndThePayloads() {
        var random = SeededRandom(seed: Self.seed &+ 3)
        for _ in 0..<100 {
            let payload = (0..<Int.random(in: 0...20_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let place = UInt32.random(in: 0...UInt32.max, using: &random)
            #expect(CRC32.shift(place, byBytes: payload.count) ^ StretchChecksums(payload).checksum(of: payload.indices)
                    == CRC32.checksum(payload, continuing: place), "RECOKIT_STRETCH_SEED=\(Self.seed)")
        }
    }

    /// Hostile version-2 bytes: valid frames among forged headers (the mark, a header check that matches
    /// the place, a length that fits, a wrong checksum) at every few offsets. Checking each forged header
    /// by checksumming its payload made a scan quadratic; the scan must still find exactly the records and
    /// stretches a plain scan finds, and the segment's format must be read alike with a damaged header.
    @Test func forgedVersion2HeadersAreScannedAsThePlainScanDoes() {
        var random = SeededRandom(seed: Self.seed &+ 4)
        for round in 0..<8 {
            // Where a segment's header would be, bytes too damaged to read as one.
            var bytes = [UInt8](repeating: 0xEE, count: RecordFrame.segmentHeaderSize)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes += (0..<Int.random(in: 0...3_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                let length = [1, 300, 5_000, 40_000][Int.random(in: 0..<4, using: &random)]
                RecordFrame.append([1] + (1..<length).map { _ in UInt8.random(in: 0...255, using: &random) }, segment: 7,
                                   offset: bytes.count, to: &bytes)
            }
            var at = RecordFrame.segmentHeaderSize
            while at + RecordFrame.headerSize < bytes.count {
                if Int.random(in: 0..<4, using: &random) == 0 {
                    let length = UInt32(Int.random(in: 1...(bytes.count - at - RecordFrame.headerSize), using: &random))
                    let place = RecordFrame.placeChecksum(segment: 7, offset: at, length: length)
                    var header: [UInt8] = [0x52, 0x4B, 2, UInt8(truncatingIfNeeded: place)]
                    RecordFrame.putUInt32(length, &header)
                    RecordFrame.putUInt32(UInt32.random(in: 0...UInt32.max, using: &random), &header)
                    bytes.replaceSubrange(at..<(at + RecordFrame.headerSize), with: header)
                }
                at += Int.random(in: 12...400, using: &random)
            }
            let start = RecordFrame.segmentHeaderSize
            expectTheScanFindsWhatThePlainScanFinds(bytes, from: start, segment: 7, format: .version2, round: round)
            // With its header unreadable, the segment is version 2 exactly when it holds a valid frame.
            let hasFrame = (start..<(bytes.count - RecordFrame.headerSize)).contains { offset in
                if case .record = RecordFrame.frame(in: bytes, at: offset, segment: 7, format: .version2) { return true }
                return false
            }
            #expect((RecordFrame.format(of: bytes, segment: 7).format == .version2) == hasFrame, "RECOKIT_STRETCH_SEED=\(Self.seed), round \(round)")
        }
    }

    /// Version-2 damage the scan crosses from one mark's first byte (`R`) to the next: runs of zeros (what a
    /// file system leaves unwritten), lone `R`s, `R`s before a `K` that is no mark, `RK` with a wrong frame
    /// version, then valid frames again. The records and stretches are the plain scan's, which asks at
    /// every byte.
    @Test func runsWithoutAMarkAreCrossedAsThePlainScanCrossesThem() {
        var random = SeededRandom(seed: Self.seed &+ 5)
        let fillers: [[UInt8]] = [[0x52], [0x52, 0x4B], [0x52, 0x4B, 3], [0x52, 0x52, 0x4B, 2], [0, 0x52, 0]]
        for round in 0..<10 {
            var bytes = RecordFrame.segmentHeader
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                var damage = [UInt8](repeating: 0, count: Int.random(in: 0...30_000, using: &random))
                for _ in 0..<Int.random(in: 0...40, using: &random) where !damage.isEmpty {
                    let filler = fillers.randomElement(using: &random)!
                    let at = Int.random(in: 0..<damage.count, using: &random)
                    damage.replaceSubrange(at..<min(damage.count, at + filler.count), with: filler.prefix(damage.count - at))
                }
                bytes += damage
                let length = [1, 300, 5_000][Int.random(in: 0..<3, using: &random)]
                RecordFrame.append([1] + (1..<length).map { _ in UInt8.random(in: 0...255, using: &random) }, segment: 3,
                                   offset: bytes.count, to: &bytes)
            }
            bytes += [UInt8](repeating: 0, count: Int.random(in: 0...5_000, using: &random))
            expectTheScanFindsWhatThePlainScanFinds(bytes, from: RecordFrame.segmentHeaderSize, segment: 3, format: .version2, round: round)
        }
    }

    /// `RecordFrame.scan` over `bytes` finds the records and bad stretches `plainScan` finds.
    private func expectTheScanFindsWhatThePlainScanFinds(_ bytes: [UInt8], from start: Int = 0, segment: UInt64 = 1,
                                                         format: RecordFrame.Format = .version1, round: Int,
                                                         sourceLocation: SourceLocation = #_sourceLocation) {
        var found: [(Int, Int)] = []
        let stretches = RecordFrame.scan(bytes, segment: segment, from: start, format: format) { offset, payload in found.append((offset, payload.count)) }
        let plain = plainScan(bytes, from: start, segment: segment, format: format)
        #expect(found.map(\.0) == plain.records.map(\.0) && found.map(\.1) == plain.records.map(\.1),
                "RECOKIT_STRETCH_SEED=\(Self.seed), round \(round): records \(found) vs \(plain.records)", sourceLocation: sourceLocation)
        #expect(stretches == plain.stretches, "RECOKIT_STRETCH_SEED=\(Self.seed), round \(round)", sourceLocation: sourceLocation)
    }

    /// The scan as it was: every offset of a damaged stretch checked with the payload's own checksum.
    private func plainScan(_ bytes: [UInt8], from: Int = 0, segment: UInt64 = 1, format: RecordFrame.Format = .version1)
        -> (records: [(Int, Int)], stretches: [RecordFrame.BadStretch]) {
        var records: [(Int, Int)] = []
        var stretches: [RecordFrame.BadStretch] = []
        var index = from
        while index < bytes.count {
            let found = RecordFrame.frame(in: bytes, at: index, segment: segment, format: format)
            if case .record(let payload, let next) = found {
                records.append((index, payload.count))
                index = next
                continue
            }
            var reason = "a record runs past the end"
            if case .invalid(let problem) = found { reason = problem.description }
            var next = index + 1
            while next < bytes.count {
                if case .record = RecordFrame.frame(in: bytes, at: next, segment: segment, format: format) { break }
                next += 1
            }
            stretches.append(RecordFrame.BadStretch(offset: index, count: next - index, reason: reason, atEnd: next >= bytes.count))
            index = next
        }
        return (records, stretches)
    }
}
