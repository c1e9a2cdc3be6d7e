import Foundation
import Testing
@testable import RecoTracking
import RecoKit
import RecoKitTesting

/// The dead letters' file is read a window at a time (it grows for as long as a vendor refuses events).
/// Whatever the window, even one byte, the store must read what reading the whole file at once reads: the
/// same letters in the same order, the same damage, the same write cut short cut off, the same re-queue.
extension DeadLetterRequeueTests {
    /// What is done to a file, in order.
    enum Step: CustomStringConvertible {
        /// Letters added in one write, with product ids of these lengths.
        case add([Int])
        /// Bytes that are no letter (a record this version cannot read, or garbage).
        case garbage([UInt8])
        /// A bit flipped at this fraction of the file written so far.
        case flip(Double, bit: Int)
        /// What a crash leaves of a last write: part of a letter, or zeros.
        case cutShort(zeros: Bool, count: Int)

        var description: String {
            switch self {
            case .add(let lengths): "add \(lengths.count) letters (ids of \(lengths.min() ?? 0)…\(lengths.max() ?? 0) characters)"
            case .garbage(let bytes): "\(bytes.count) bytes of garbage"
            case .flip(let at, let bit): "flip bit \(bit) at \(Int(at * 100))% of the file"
            case .cutShort(let zeros, let count): zeros ? "\(count) zeros at the end" : "a letter cut short after \(count) bytes"
            }
        }
    }

    /// A file made by `steps`, in a storage of its own.
    func file(_ steps: [Step]) throws -> FaultyStorage {
        let storage = FaultyStorage(seed: 1)
        let store = DeadLetterStore(storage: storage, durable: true)
        var number = 0
        let at = Date(timeIntervalSince1970: 1_764_000_000)
        func letters(_ lengths: [Int]) -> [(payload: ArraySlice<UInt8>, reason: String)] {
            lengths.map { length in
                number += 1
                let product = "P-\(number)-" + String(repeating: "x", count: length)
                let event = TrackedEvent(id: EventID(run: 5, sequence: UInt64(number)), interaction: Fixtures.click(product, occurred: at))
                return (EventCodec.encode(event)[...], "HTTP 422: refused \(number)")
            }
        }
        for step in steps {
            let size = storage.disk.files[DeadLetterStore.fileName]?.content.count ?? 0
            switch step {
            case .add(let lengths):
                try store.add(letters(lengths), at: at)
            case .garbage(let bytes):
                _ = try storage.append(DeadLetterStore.fileName, bytes[...])
            case .flip(let fraction, let bit):
                if size > 0 { storage.flip(DeadLetterStore.fileName, offset: min(size - 1, Int(Double(size) * fraction)), bit: bit) }
            case .cutShort(let zeros, let count):
                if zeros {
                    _ = try storage.append(DeadLetterStore.fileName, [UInt8](repeating: 0, count: count)[...])
                } else {
                    // What adding two more letters writes, cut after `count` bytes.
                    let scratch = FaultyStorage(seed: 9)
                    try DeadLetterStore(storage: scratch, durable: true).add(letters([3, 40]), at: at)
                    let written = try #require(scratch.disk.files[DeadLetterStore.fileName]?.content)
                    _ = try storage.append(DeadLetterStore.fileName, written.prefix(min(count, written.count - 1)))
                }
            }
        }
        return storage
    }

    /// Everything a store reads from one file, in a form to compare.
    struct Reading {
        var listed: [String]
        var damage: [String]
        var cutOff: Range<Int>?
        var fileAfterCutOff: [UInt8]
        var quarantineBytes: Int
        var requeued: [String]
        var requeuedPayloads: [[UInt8]]
        var fileAfterRequeue: [UInt8]
        var quarantineAfterRequeue: Int

        /// What differs from `other`, said briefly (the letters are long).
        func differences(from other: Reading) -> [String] {
            var found: [String] = []
            func first<T: Equatable>(_ name: String, _ mine: [T], _ theirs: [T]) {
                guard mine != theirs else { return }
                let index = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(mine.count, theirs.count)
                found.append("\(name) (\(mine.count) against \(theirs.count), first differing at \(index))")
            }
            first("letters listed", listed, other.listed)
            if damage != other.damage { found.append("damage: \(damage) against \(other.damage)") }
            if cutOff != other.cutOff { found.append("cut off: \(String(describing: cutOff)) against \(String(describing: other.cutOff))") }
            first("the file after the cut-off", fileAfterCutOff, other.fileAfterCutOff)
            if quarantineBytes != other.quarantineBytes { found.append("quarantine: \(quarantineBytes) bytes against \(other.quarantineBytes)") }
            first("letters re-queued", requeued, other.requeued)
            first("payloads re-queued", requeuedPayloads, other.requeuedPayloads)
            first("the file after the re-queue", fileAfterRequeue, other.fileAfterRequeue)
            if quarantineAfterRequeue != other.quarantineAfterRequeue {
                found.append("quarantine after the re-queue: \(quarantineAfterRequeue) bytes against \(other.quarantineAfterRequeue)")
            }
            return found
        }
    }

    func reading(_ steps: [Step], window: Int) throws -> Reading {
        let storage = try file(steps)
        let store = DeadLetterStore(storage: storage, durable: true, window: window)
        let describe = { (letter: DeadLetter) in "\(letter.event.id) \(letter.event.interaction.productId ?? "") \(letter.reason) \(letter.at)" }
        let listed = try store.list().map { describe($0.letter) }
        let damage = store.damage
        let cut = try store.cutOffAWriteCutShort()
        let fileAfterCutOff = storage.disk.files[DeadLetterStore.fileName]?.content ?? []
        // Entries in quarantine.log carry the time they were written, always as many characters.
        let quarantine = storage.disk.files[JournalQuarantine.fileName]?.content.count ?? 0
        var requeued: [String] = []
        var payloads: [[UInt8]] = []
        _ = try store.requeue { (letters: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in
            requeued += letters.map { describe($0.letter) }
            payloads += letters.map(\.payload)
        }
        return Reading(listed: listed, damage: damage, cutOff: cut?.byteRange, fileAfterCutOff: fileAfterCutOff,
                       quarantineBytes: quarantine, requeued: requeued, requeuedPayloads: payloads,
                       fileAfterRequeue: storage.disk.files[DeadLetterStore.fileName]?.content ?? [],
                       quarantineAfterRequeue: storage.disk.files[JournalQuarantine.fileName]?.content.count ?? 0)
    }

    /// What the whole file holds, read as the store read it before windows: one scan from its first byte.
    /// The letters' ids, the stretches that hold none (offset and length), and the write cut short at the
    /// end, if any.
    func wholeFile(_ steps: [Step]) throws -> (letters: [String], stretches: [Range<Int>], cutShort: Range<Int>?) {
        let bytes = try file(steps).disk.files[DeadLetterStore.fileName]?.content ?? []
        var letters: [String] = []
        var stretches: [Range<Int>] = []
        let bad = RecordFrame.scan(bytes, segment: 0, from: 0, format: .version1) { offset, record in
            // A letter: the reason's length, the reason, the time (8 bytes), the journaled event.
            let body = Array(record)
            let length = body.count >= 4 ? Int(RecordFrame.readUInt32(body, 0)) : Int.max
            if length <= body.count - 12, let event = try? EventCodec.decode(body[(12 + length)...]) {
                letters.append("\(event.id)")
            } else {
                stretches.append(offset..<(offset + RecordFrame.legacyHeaderSize + body.count))
            }
        }
        stretches += bad.map { $0.offset..<($0.offset + $0.count) }
        let cutShort = bad.last.flatMap { last in
            RecordFrame.isCutShortAppend(last, in: bytes, segment: 0, format: .version1) ? last.offset..<(last.offset + last.count) : nil
        }
        return (letters, stretches.sorted { $0.lowerBound < $1.lowerBound }, cutShort)
    }

    /// Random files (letters from a few bytes to several kilobytes, garbage, flipped bits, a write cut
    /// short at the end), each read through windows from 1 byte to larger than the file: every reading
    /// equals the whole file's. Replay one with its seed.
    @Test(arguments: 1...24)
    func everyWindowReadsWhatTheWholeFileHolds(round: Int) throws {
        let seed = 0xD1E7_0000 + UInt64(round)
        var random = SeededRandom(seed: seed)
        var steps: [Step] = []
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: steps.append(.garbage((0..<Int.random(in: 1...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
            case 1: steps.append(.flip(Double.random(in: 0..<1, using: &random), bit: Int.random(in: 0..<8, using: &random)))
            default:
                steps.append(.add((0..<Int.random(in: 1...40, using: &random)).map { _ in
                    Int.random(in: 0..<10, using: &random) == 0 ? Int.random(in: 1_000...6_000, using: &random) : Int.random(in: 0...60, using: &random)
                }))
            }
        }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: steps.append(.cutShort(zeros: true, count: Int.random(in: 1...1_500, using: &random)))
        case 1: steps.append(.cutShort(zeros: false, count: Int.random(in: 1...200, using: &random)))
        default: break
        }
        let whole = try reading(steps, window: 1 << 40)
        let expected = try wholeFile(steps)
        #expect(whole.listed.map { String($0.prefix { $0 != " " }) } == expected.letters, "seed \(seed): \(steps)")
        let stretches = whole.damage.map { description in
            // "dead-letters.log: N unreadable bytes at offset O skipped (…)"
            let words = description.split(separator: " ")
            let count = Int(words[1]) ?? -1, offset = Int(words[6]) ?? -1
            return offset..<(offset + count)
        }
        #expect(stretches == expected.stretches, "seed \(seed): \(whole.damage) against \(expected.stretches)")
#expect(whole.cutOff == expected.cutShort, "seed \(seed): \(String(describing: whole.cutOff)) against \(String(describing: expected.cutShort))")
        let added = steps.reduce(0) { if case .add(let lengths) = $1 { $0 + lengths.count } else { $0 } }
        let flips = steps.reduce(0) { if case .flip = $1 { $0 + 1 } else { $0 } }
        // A flip costs the letter it lands in; garbage costs none (the scan finds the next letter after it).
        #expect(whole.listed.count >= added - flips && whole.listed.count <= added, "seed \(seed): \(steps)")
        #expect(whole.requeued == whole.listed, "seed \(seed)")
        for window in [1, 7, 64, 333, 4_096, 65_536] {
            let differences = try reading(steps, window: window).differences(from: whole)
            #expect(differences.isEmpty, "seed \(seed), window \(window): \(steps): \(differences)")
        }
    }
}

extension DeadLetterRequeueTests {
    /// Records the largest read of one file (the dead letters' unless given), and passes everything on.
    final class ReadRecordingStorage: JournalStorage, @unchecked Sendable {
        let storage: FaultyStorage
        let file: String
        private(set) var largestRead = 0
        init(_ storage: FaultyStorage, file: String = DeadLetterStore.fileName) {
            self.storage = storage
            self.file = file
        }
        var location: String { storage.location }
        func lock(exclusive: Bool) throws(JournalStorageError) { storage.lock(exclusive: exclusive) }
        func exists() -> Bool { storage.exists() }
        func list() throws(JournalStorageError) -> [String] { try storage.list() }
        func size(_ name: String) throws(JournalStorageError) -> Int? { try storage.size(name) }
        func read(_ name: String, offset: Int, count: Int) throws(JournalStorageError) -> [UInt8] {
            let bytes = try storage.read(name, offset: offset, count: count)
            if name == file { largestRead = max(largestRead, bytes.count) }
            return bytes
        }
        func append(_ name: String, _ bytes: ArraySlice<UInt8>) throws(JournalStorageError) -> Int { try storage.append(name, bytes) }
        func sync(_ name: String) throws(JournalStorageError) { try storage.sync(name) }
        func truncate(_ name: String, to size: Int) throws(JournalStorageError) { try storage.truncate(name, to: size) }
        func replace(_ name: String, with bytes: [UInt8], durable: Bool) throws(JournalStorageError) {
            try storage.replace(name, with: bytes, durable: durable)
        }
        func remove(_ name: String) throws(JournalStorageError) { try storage.remove(name) }
        func close() { storage.close() }
    }

    /// A file without damage, however large, is never read whole: opening it, listing it and re-queueing
    /// it read at most a window at a time, or twice the longest letter when that is longer (a window grows
    /// until it holds the letter). Letters of up to 6 KB, windows from 1 byte.
    @Test(arguments: 1...8)
    func aFileWithoutDamageIsReadAWindowAtATime(round: Int) throws {
        let seed = 0xD1E8_0000 + UInt64(round)
        var random = SeededRandom(seed: seed)
        let steps: [Step] = (0..<Int.random(in: 2...6, using: &random)).map { _ in
            .add((0..<Int.random(in: 1...40, using: &random)).map { _ in
                Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 1_000...6_000, using: &random) : Int.random(in: 0...60, using: &random)
            })
        }
        let bytes = try #require(try file(steps).disk.files[DeadLetterStore.fileName]?.content)
        var longest = 0
        _ = RecordFrame.scan(bytes, segment: 0, from: 0, format: .version1) { _, record in
            longest = max(longest, RecordFrame.legacyHeaderSize + record.count)
        }
        for window in [1, 64, 1_000, 4_096] {
            let storage = ReadRecordingStorage(try file(steps))
            let store = DeadLetterStore(storage: storage, durable: true, window: window)
            #expect(try store.cutOffAWriteCutShort() == nil)
            let listed = try store.list().count
            var requeued = 0
            _ = try store.requeue { (letters: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in requeued += letters.count }
            #expect(listed == requeued && requeued > 0)
            #expect(storage.largestRead <= max(window, 2 * longest),
                    "seed \(seed), window \(window): read \(storage.largestRead) bytes at once of \(bytes.count) (longest letter \(longest))")
        }
    }
}

extension DeadLetterRequeueTests {
    /// While a listing reads the file a window at a time, letters are added and re-queues forget them (a
    /// tracker's sender dead-letters while `requeueDeadLetters()` runs, and `deadLetters()` is called
    /// meanwhile): a listing that meets a removal reads the file again, so it never takes the bytes of
    /// the file after a removal for the rest of the file before it (no damage, no letter twice or
    /// foreign), and every letter added is re-queued once or still listed at the end.
    @Test func aListingAlongsideReQueuesSeesWholeLettersOnly() async throws {
        let storage = FaultyStorage(seed: 4)
        let store = DeadLetterStore(storage: storage, durable: true, window: 97)
        let rounds = 300
        let requeued = Locked<[UInt64]>([])
        let listings = Locked<(count: Int, problems: [String])>((0, []))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<rounds {
                    let first = round * 10
                    try? store.add((1...10).map { self.letter(first + $0) }, at: Date(timeIntervalSince1970: 1_764_000_000))
                    if round % 3 == 2 {
                        _ = try? store.requeue { (letters: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in
                            requeued.withLock { $0 += letters.map(\.letter.event.id.sequence) }
                        }
                    }
                }
            }
            group.addTask {
                for _ in 0..<1_000 {
                    guard let letters = try? store.list() else {
                        listings.withLock { $0.problems.append("a listing failed") }
                        continue
                    }
                    let ids = letters.map(\.letter.event.id.sequence)
                    let problems = (Set(ids).count != ids.count ? ["a letter listed twice"] : [])
                        + (ids.contains { $0 < 1 || $0 > UInt64(rounds * 10) } ? ["a letter never added"] : [])
                        + (store.damage.isEmpty ? [] : ["damage: \(store.damage)"])
                    listings.withLock {
                        $0.count += 1
                        $0.problems += problems
                    }
                }
            }
        }
        let left = try store.list().map(\.letter.event.id.sequence)
        let all = requeued.withLock { $0 } + left
        #expect(listings.withLock { $0.problems }.isEmpty, "\(listings.withLock { $0.problems.prefix(5) })")
        #expect(all.sorted() == (1...UInt64(rounds * 10)).map { $0 }, "re-queued \(requeued.withLock { $0.count }), left \(left.count)")
        #expect(store.damage.isEmpty)
    }
}

extension DeadLetterRequeueTests {
    /// The same, made to happen: while a reading is between two windows, a re-queue forgets every letter and
    /// new ones are written where they were. The reading stops at what it had read (its mark then forgets
    /// nothing), instead of reading the new letters' bytes at its old place.
    @Test func aReadingThatMeetsARemovalStopsWhereItWas() throws {
        let storage = FaultyStorage(seed: 6)
        let store = DeadLetterStore(storage: storage, durable: true, window: 97)
        try store.add((1...30).map { letter($0) }, at: Date(timeIntervalSince1970: 1_764_000_000))
        var seen: [UInt64] = []
        var meddled = false
        let end = try store.read { (piece: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in
            seen += piece.map(\.letter.event.id.sequence)
            guard !meddled else { return }
            meddled = true
            _ = try store.requeue { _ in }
            try store.add((41...80).map { letter($0) }, at: Date(timeIntervalSince1970: 1_764_000_000))
        }
        #expect(!seen.isEmpty && seen == (1...UInt64(seen.count)).map { $0 } && seen.count < 30, "\(seen)")
        #expect(store.damage.isEmpty, "\(store.damage)")
        try store.remove(readUpTo: end)
        #expect(try store.list().map(\.letter.event.id.sequence) == (41...80).map { UInt64($0) })
        #expect(store.damage.isEmpty, "\(store.damage)")
    }
}

extension JournalFaultTests {
    /// A running tracker's dead letters, gone through one by one (a file too large to list in one array):
    /// the same letters, in the same order, as `deadLetters()`.
    @Test func aTrackersDeadLettersOneByOneAreTheListedOnes() async throws {
        let storage = FaultyStorage(seed: 12)
        let letters = (1...3_000).map { number in
            let event = TrackedEvent(id: EventID(run: 5, sequence: UInt64(number)), interaction: Fixtures.click("P-\(number)"))
            return (payload: EventCodec.encode(event)[...], reason: "HTTP 422: refused \(number)")
        }
        try DeadLetterStore(storage: storage, durable: true).add(letters, at: Date())
        let tracker = try Tracker(destination: CountingDestination(), configuration: TrackerSetup(journal: nil, durability: .strict),
                                  storage: storage, transport: SwitchingTransport(), clock: SystemTrackingClock())
        var seen: [String] = []
        let count = try await tracker.deadLetters { seen.append("\($0.event.id) \($0.reason)") }
        #expect(count == 3_000)
        #expect(seen == (try await tracker.deadLetters()).map { "\($0.event.id) \($0.reason)" })
        #expect(seen.first == "0000000000000005-1 HTTP 422: refused 1" && seen.last == "0000000000000005-3000 HTTP 422: refused 3000", "\(seen.prefix(1)) \(seen.suffix(1))")
        _ = await tracker.shutdown(deadline: .zero)
    }
}
