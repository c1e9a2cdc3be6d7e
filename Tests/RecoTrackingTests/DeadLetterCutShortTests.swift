import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// A dead-letter write cut short by a crash or a power loss (its events stay pending: the batch is
/// forgotten only once its letters are durable) is cut off as the next tracker opens the journal, before
/// it adds a letter, so the letters after it do not follow damage; its bytes go to `quarantine.log` first,
/// and the recovery report lists it as an interrupted write.
extension DeadLetterRequeueTests {
    enum CutShort: CaseIterable, CustomStringConvertible {
        /// The process died while appending: part of a letter at the end.
        case partOfALetter
        /// The power failed: the file was grown for the letters, its blocks never written.
        case unwrittenBlocks

        var description: String { self == .partOfALetter ? "part of a letter" : "unwritten blocks" }
    }

    @Test(arguments: CutShort.allCases)
    func aLetterWriteCutShortIsCutOffBeforeTheNextLetter(_ cut: CutShort) throws {
        let storage = FaultyStorage(seed: 2)
        let before = DeadLetterStore(storage: storage, durable: true)
        try before.add([letter(1), letter(2)], at: Date())
        let whole = try #require(storage.disk.files[DeadLetterStore.fileName]?.content.count)
        switch cut {
        case .partOfALetter:
            // What adding letters 3 and 4 writes, cut inside letter 3.
            let scratch = FaultyStorage(seed: 9)
            try DeadLetterStore(storage: scratch, durable: true).add([letter(3), letter(4)], at: Date())
            let written = try #require(scratch.disk.files[DeadLetterStore.fileName]?.content)
            _ = try storage.append(DeadLetterStore.fileName, written.prefix(40))
        case .unwrittenBlocks:
            _ = try storage.append(DeadLetterStore.fileName, [UInt8](repeating: 0, count: 700)[...])
        }
        let cutShort = try #require(storage.disk.files[DeadLetterStore.fileName]?.content).dropFirst(whole)

        // The next process.
        let restarted = FaultyStorage(disk: storage.disk.afterProcessCrash(), seed: 3)
        let store = DeadLetterStore(storage: restarted, durable: true)
        let (listed, stale) = try store.read()
        #expect(listed.count == 2)
        let cutOff = try #require(try store.cutOffAWriteCutShort())
        #expect(cutOff.isInterruptedWrite && cutOff.file == DeadLetterStore.fileName)
        #expect(cutOff.byteRange == whole..<(whole + cutShort.count))
        #expect(try store.cutOffAWriteCutShort() == nil, "cut off twice")
        try store.add([letter(5)], at: Date())
        #expect(try products(store) == ["P-1", "P-2", "P-5"])
        #expect(store.damage.isEmpty, "\(store.damage)")
        // The cut-off bytes are in quarantine, as they were.
        let quarantine = try #require(restarted.disk.files[JournalQuarantine.fileName]?.content)
        var entries: [ArraySlice<UInt8>] = []
        _ = RecordFrame.scan(quarantine, segment: 0, from: 0, format: .version1) { _, entry in entries.append(entry) }
        #expect(entries.count == 1 && entries.first?.reversed().starts(with: cutShort.reversed()) == true)
        // A re-queue that had read the letters before the cut forgets nothing: the bytes it read are no
        // longer where they were (duplicates at worst, never loss).
        try store.remove(readUpTo: stale)
        #expect(try products(store) == ["P-1", "P-2", "P-5"])
    }

    /// Damage that is not a write cut short (a flipped byte in the last letter) is left where it is, and
    /// listed.
    @Test func aDamagedLastLetterIsNotCutOff() throws {
        let storage = FaultyStorage(seed: 2)
        try DeadLetterStore(storage: storage, durable: true).add([letter(1), letter(2)], at: Date())
        let size = try #require(storage.disk.files[DeadLetterStore.fileName]?.content.count)
        storage.flip(DeadLetterStore.fileName, offset: size - 10, bit: 2)
        let store = DeadLetterStore(storage: storage, durable: true)
        #expect(try store.cutOffAWriteCutShort() == nil)
        try store.add([letter(3)], at: Date())
        #expect(try products(store) == ["P-1", "P-3"])
        #expect(store.damage.count == 1)
        #expect(storage.disk.files[JournalQuarantine.fileName] == nil)
    }
}

extension JournalFaultTests {
    /// A tracker opening a journal whose dead-letter file ends in a write cut short: the recovery report
    /// lists it, as an interrupted write; the letters before it stay, and the file is clean again.
    @Test func aTrackerCutsOffADeadLetterWriteCutShortAndReportsIt() async throws {
        let storage = FaultyStorage(seed: 5)
        let letter = EventCodec.encode(TrackedEvent(id: EventID(run: 5, sequence: 1), interaction: Fixtures.click("P-1")))
        try DeadLetterStore(storage: storage, durable: true).add([(letter[...], "HTTP 422")], at: Date())
        _ = try storage.append(DeadLetterStore.fileName, [UInt8](repeating: 0, count: 512)[...])
        let tracker = try Tracker(destination: CountingDestination(), configuration: TrackerSetup(journal: nil, durability: .strict),
                                  storage: storage, transport: SwitchingTransport(), clock: SystemTrackingClock())
        let damage = tracker.recoveryReport.damage
        #expect(damage.count == 1 && damage.allSatisfy(\.isInterruptedWrite) && damage.first?.file == DeadLetterStore.fileName, "\(damage)")
        #expect(try await tracker.deadLetters().map { $0.event.interaction.productId } == ["P-1"])
        _ = await tracker.shutdown(deadline: .zero)
        #expect(try inspect(storage).damage.isEmpty)
        let reread = DeadLetterStore(storage: storage, durable: true)
        #expect(try reread.list().count == 1)
        #expect(reread.damage.isEmpty, "\(reread.damage)")
    }
}
