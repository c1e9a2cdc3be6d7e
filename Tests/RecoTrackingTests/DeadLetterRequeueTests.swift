import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// Re-queueing dead letters forgets only what it re-queued: letters written meanwhile stay, and bytes
/// that held no readable letter go to `quarantine.log`, not away.
@Suite("Dead letters: re-queueing loses none")
struct DeadLetterRequeueTests {
    func letter(_ number: Int) -> (payload: ArraySlice<UInt8>, reason: String) {
        let event = TrackedEvent(id: EventID(run: 5, sequence: UInt64(number)), interaction: Fixtures.click("P-\(number)"))
        return (EventCodec.encode(event)[...], "HTTP 422: refused \(number)")
    }

    func products(_ store: DeadLetterStore) throws -> [String] {
        try store.list().map { $0.letter.event.interaction.productId ?? "" }
    }

    /// A tracker's sender dead-letters a batch while `requeueDeadLetters()` is between reading the letters
    /// and forgetting them (it appends and commits them to the journal in between): the new letter was
    /// emptied away with the re-queued ones.
    @Test func aLetterWrittenWhileARequeueRunsIsKept() throws {
        let storage = FaultyStorage(seed: 1)
        let store = DeadLetterStore(storage: storage, durable: true)
        try store.add([letter(1), letter(2)], at: Date())
        let (letters, size) = try store.read()
        #expect(letters.count == 2)
        try store.add([letter(3)], at: Date())
        try store.remove(readUpTo: size)
        #expect(try products(store) == ["P-3"])
        #expect(store.damage.isEmpty)
        // Nothing added since: the file is emptied.
        let (rest, restSize) = try store.read()
        #expect(rest.count == 1)
        try store.remove(readUpTo: restSize)
        #expect(try store.list().isEmpty)
        #expect(storage.disk.files[JournalQuarantine.fileName] == nil)
    }

    /// A flipped byte in a dead letter and a record that holds no letter this version reads: listed as
    /// damage, and when the letters around them are re-queued, their bytes are copied to quarantine.log
    /// before the file is emptied.
    @Test func unreadableLettersAreQuarantinedWhenTheRestAreRequeued() throws {
        let storage = FaultyStorage(seed: 1)
        let store = DeadLetterStore(storage: storage, durable: true)
        try store.add([letter(1), letter(2)], at: Date())
        var noLetter: [UInt8] = []
        RecordFrame.appendLegacy(Array("not a dead letter".utf8), to: &noLetter)
        _ = try storage.append(DeadLetterStore.fileName, noLetter[...])
        try store.add([letter(3)], at: Date())
        storage.flip(DeadLetterStore.fileName, offset: 20, bit: 0)   // inside letter 1

        let (letters, size) = try store.read()
        #expect(letters.map { $0.letter.event.interaction.productId } == ["P-2", "P-3"])
        #expect(store.damage.count == 2, "\(store.damage)")
        let damaged = try #require(storage.disk.files[DeadLetterStore.fileName]?.content)
        try store.remove(readUpTo: size)
        #expect(try store.list().isEmpty)

        let quarantine = try #require(storage.disk.files[JournalQuarantine.fileName]?.content)
        var entries: [[UInt8]] = []
        let unread = RecordFrame.scan(quarantine, segment: 0, from: 0, format: .version1) { _, entry in entries.append(Array(entry)) }
        #expect(unread.isEmpty && entries.count == 2)
        // Each entry: a line naming the file, then the bytes as they were (letter 1 as damaged, the record).
        let kept = entries.map { entry in
            let line = entry.prefix { $0 != 10 }
            #expect(String(decoding: line, as: UTF8.self).contains("\"file\":\"\(DeadLetterStore.fileName)\""))
            return Array(entry.dropFirst(line.count + 1))
        }
        #expect(kept.count == 2 && damaged.starts(with: kept[0]) && kept[0].count > 20)
        #expect(kept.last == noLetter)
    }
}
