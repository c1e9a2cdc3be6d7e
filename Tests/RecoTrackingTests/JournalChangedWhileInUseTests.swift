import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// A journal's files changed by another process while a tracker uses them.
///
/// Deleted (its folder removed by hand or by a deploy script, old files cleaned out of /tmp), a file still
/// takes writes through the open descriptor, and `fsync` succeeds, but nothing written to it survives the
/// process: the relay acknowledged 50 more lines after the folder was removed, and a kill lost them
/// without a word. Truncated (`: > file`, a log rotation that copies and truncates), a segment lost the
/// records it had acknowledged, and the next appends (O_APPEND) landed at offsets their frames do not
/// name: the relay acknowledged 100 more lines, every one of them unreadable. A sync checks that the
/// file is still the one at its name, and a write and a sync that the file is as long as the journal's
/// own writes left it; each fails saying what happened.
extension RelayProcessSuite {
    @Suite("A journal deleted or changed while in use")
    struct JournalChangedWhileInUseTests {
        static func lines(_ range: ClosedRange<Int>) -> [String] {
            range.map { #"{"type":"click","instanceId":"rec_1","productId":"P-\#($0)","position":3,"userId":"u1","sessionId":"s1"}"# }
        }

        enum Change: CaseIterable, CustomStringConvertible {
            case folderDeleted, segmentDeleted, segmentEmptied, segmentCutInHalf, segmentWrittenTo
            var description: String {
                switch self {
                case .folderDeleted: "the folder deleted"
                case .segmentDeleted: "the segment file deleted"
                case .segmentEmptied: "the segment truncated to nothing"
                case .segmentCutInHalf: "the segment cut in half"
                case .segmentWrittenTo: "a line appended to the segment"
                }
            }

            /// What the relay's error says.
            var complaint: String {
                switch self {
                case .folderDeleted, .segmentDeleted: "segment-000000000001.log durable: the file was deleted or replaced while in use"
                case .segmentEmptied, .segmentCutInHalf: "segment-000000000001.log: it is %d bytes long where the journal left it at %d; another process truncated it while in use"
                case .segmentWrittenTo: "segment-000000000001.log: it is %d bytes long where the journal left it at %d; another process wrote to it while in use"
                }
            }

            /// Makes the change; the segment's size after it.
            func make(in directory: URL, segmentSize: Int) throws -> Int {
                let segment = directory.appendingPathComponent(JournalState.fileName(1))
                switch self {
                case .folderDeleted: try FileManager.default.removeItem(at: directory)
                case .segmentDeleted: try FileManager.default.removeItem(at: segment)
                case .segmentEmptied, .segmentCutInHalf:
                    let size = self == .segmentEmptied ? 0 : segmentSize / 2
                    #expect(truncate(segment.path, off_t(size)) == 0)
                    return size
                case .segmentWrittenTo:
                    let handle = try FileHandle(forWritingTo: segment)
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data("not the journal's\n".utf8))
                    try handle.close()
                    return segmentSize + 18
                }
                return 0
            }
        }

        /// 50 lines acknowledged, then the journal changed, then 50 lines more: none of those is
        /// acknowledged, and the relay fails saying why.
        @Test(arguments: Change.allCases)
        func noLineIsAcknowledgedIntoAJournalChangedUnderIt(_ change: Change) async throws {
            let parent = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: parent) }
            let directory = parent.appendingPathComponent("journal")
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", "http://127.0.0.1:9",
                                          "--api-key", "k", "--durability", "strict", "--deadline", "2"])
            relay.feed(Self.lines(1...50), keepOpen: true)
            #expect(await relay.waitUntil { $0.acknowledged.count == 50 })
            let written = try #require(try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(JournalState.fileName(1)).path)[.size] as? Int)
            let size = try change.make(in: directory, segmentSize: written)
            relay.feed(Self.lines(51...100))
            #expect(relay.wait() == 1, "\(relay.stderr)")
            #expect(relay.acknowledged.count == 50, "\(relay.acknowledged.count) lines acknowledged")
            #expect(relay.acknowledged.keys.allSatisfy { $0 <= 50 })
            let complaint = change.complaint.replacingOccurrences(of: "%d bytes", with: "\(size) bytes")
                .replacingOccurrences(of: "at %d", with: "at \(written)")
            #expect(relay.stderr.contains(complaint), "\(relay.stderr)")
        }
    }
}

extension JournalFaultTests {
    /// The same in a library tracker (strict): `track` throws once the journal's folder is gone, and the
    /// statistics say why.
    @Test func trackThrowsOnceTheJournalFolderIsDeleted() async throws {
        let parent = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("journal")
        let tracker = try Tracker(destination: CountingDestination(), configuration: TrackerSetup(journal: directory, durability: .strict),
                                  transport: SwitchingTransport())
        for number in 1...10 { try tracker.track(Fixtures.click("P-\(number)")) }
        try FileManager.default.removeItem(at: directory)
        #expect(throws: TrackingError.self) { try tracker.track(Fixtures.click("P-11")) }
        #expect(tracker.statistics.diskError?.contains("was deleted or replaced while in use") == true, "\(String(describing: tracker.statistics.diskError))")
        _ = await tracker.shutdown(deadline: .zero)
    }

    /// A segment truncated under a library tracker (strict): the next `track` throws saying so (its event
    /// is not kept); the journal is then whole again where it left it, so later events are kept and read
    /// back, and the records the truncation took are reported as damage when the journal opens next,
    /// not lost without a word.
    @Test(arguments: [0, 1, 2])
    func aTruncatedSegmentIsReportedAndTheJournalGoesOn(_ cut: Int) async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let segment = directory.appendingPathComponent(JournalState.fileName(1))
        let configuration = TrackerSetup(journal: directory, durability: .strict)
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, transport: UnreachableTransport())
        for number in 1...10 { try tracker.track(Fixtures.click("P-\(number)")) }
        let written = try #require(try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int)
        // Nothing, a third, or all but the last 16 bytes left (the last record's tail: its final byte
        // alone may be zero, which the journal's rollback writes back as it was).
        let size = [0, written / 3, written - 16][cut]
        #expect(truncate(segment.path, off_t(size)) == 0)
        #expect(throws: TrackingError.self) { try tracker.track(Fixtures.click("P-11")) }
        let error = tracker.statistics.diskError ?? ""
        #expect(error.contains("it is \(size) bytes long where the journal left it at \(written); another process truncated it while in use"), "\(error)")
        try tracker.track(Fixtures.click("P-12"))
        _ = await tracker.shutdown(deadline: .zero)

        let reopened = try Tracker(destination: CountingDestination(), configuration: configuration, transport: UnreachableTransport())
        let report = reopened.recoveryReport
        _ = await reopened.shutdown(deadline: .zero)
        let lost = report.damage.filter { $0.file == JournalState.fileName(1) }.map(\.byteRange)
        // What the truncation took (from the last whole record before the cut to where the journal had
        // written) is reported; the whole records before it and P-12, written after, are pending.
        #expect(lost.contains { $0.lowerBound <= size && $0.upperBound == written }, "\(report)")
        switch cut {
        case 0: #expect(report.pendingEvents == 1, "\(report)")
        case 1: #expect((2...9).contains(report.pendingEvents), "\(report)")
        default: #expect(report.pendingEvents == 10, "\(report)")
        }
    }
}

/// A vendor that cannot be reached: every event stays pending.
struct UnreachableTransport: Transport {
    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        throw URLError(.cannotConnectToHost)
    }
}

/// The logs the journal only adds to are another matter: an operator empties or deletes
/// `dead-letters.log` once its letters are dealt with, a cleaner of old files removes it. A tracker whose
/// dead-letter file was deleted could never write a letter again (each sync failed: the file was no
/// longer at its name), so every batch the vendor refused stayed pending and was sent again until the
/// process restarted. Letters (and quarantined damage) now go to the file at the name.
@Suite("Dead letters and quarantine: the log changed by another process")
struct SideLogChangedTests {
    enum Change: CaseIterable, CustomStringConvertible {
        case deleted, emptied, replaced, writtenTo
        var description: String {
            switch self {
            case .deleted: "deleted"
            case .emptied: "emptied"
            case .replaced: "replaced by another file"
            case .writtenTo: "written to by another process"
            }
        }

        /// Makes the change to the file at `path`.
        func make(_ path: String) throws {
            switch self {
            case .deleted: try FileManager.default.removeItem(atPath: path)
            case .emptied: #expect(truncate(path, 0) == 0)
            case .replaced:
                try Data().write(to: URL(fileURLWithPath: path + ".other"))
                #expect(rename(path + ".other", path) == 0)
            case .writtenTo:
                let handle = try #require(FileHandle(forWritingAtPath: path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("a note an operator left\n".utf8))
                try handle.close()
            }
        }

        /// Whether the letters written before are still in the file after the change.
        var keepsEarlierLetters: Bool { self == .writtenTo }
    }

    static func letters(_ numbers: ClosedRange<Int>) -> [(payload: ArraySlice<UInt8>, reason: String)] {
        numbers.map { number in
            let event = TrackedEvent(id: EventID(run: 7, sequence: UInt64(number)), interaction: Fixtures.click("P-\(number)"))
            return (EventCodec.encode(event)[...], "HTTP 422: refused \(number)")
        }
    }

    /// Letters added after the change are written (no error) to the file now at the name, and a reading
    /// made before the change removes nothing.
    @Test(arguments: Change.allCases)
    func lettersGoToTheFileAtItsName(_ change: Change) throws {
        try Self.withStorage { storage in
            let store = DeadLetterStore(storage: storage, durable: true)
            try store.add(Self.letters(1...3), at: Date())
            let (before, mark) = try store.read()
            #expect(before.count == 3)
            try change.make(storage.path(DeadLetterStore.fileName))
            try store.add(Self.letters(4...5), at: Date())
            try store.remove(readUpTo: mark)
            let expected = (change.keepsEarlierLetters ? 1...5 : 4...5).map { "P-\($0)" }
            #expect(try store.list().map(\.letter.event.interaction.productId) == expected)
            // And read by a process opening the directory afresh.
            let fresh = FileJournalStorage(directory: storage.directory)
            defer { fresh.close() }
            #expect(try DeadLetterStore(storage: fresh, durable: true).list().map(\.letter.event.interaction.productId) == expected)
        }
    }

    /// An operator edits `dead-letters.log` under a running tracker, keeping one letter of three (an
    /// editor writes a new file and renames it over the old), or deletes it; no letter is written since.
    /// A reading then reads the file at the name: the kept letter, or none. (It read the file the store
    /// still held open, as far as the new file's size: the first letter, which the operator had dropped,
    /// and it was re-queued.)
    @Test(arguments: [false, true])
    func aReadingReadsTheFileAnOperatorLeft(deleted: Bool) throws {
        try Self.withStorage { storage in
            let store = DeadLetterStore(storage: storage, durable: true)
            try store.add(Self.letters(1...3), at: Date())
            #expect(try store.list().count == 3)
            let path = storage.path(DeadLetterStore.fileName)
            if deleted {
                try FileManager.default.removeItem(atPath: path)
            } else {
                try Self.withStorage { scratch in
                    try DeadLetterStore(storage: scratch, durable: true).add(Self.letters(2...2), at: Date())
                    #expect(rename(scratch.path(DeadLetterStore.fileName), path) == 0)
                }
            }
            let kept = deleted ? [] : ["P-2"]
            #expect(try store.list().map(\.letter.event.interaction.productId) == kept)
            var requeued: [String] = []
            _ = try store.requeue { (letters: [(letter: DeadLetter, payload: [UInt8])]) throws(TrackingError) in
                requeued += letters.compactMap(\.letter.event.interaction.productId)
            }
            #expect(requeued == kept)
            try store.add(Self.letters(4...4), at: Date())
            #expect(try store.list().map(\.letter.event.interaction.productId) == ["P-4"])
        }
    }

    /// `quarantine.log` replaced by another of the same length holding another entry (an operator's
    /// editor, or a copy): the same damage met again is kept in the file at the name. (The log it held
    /// open said the entry was kept already, and the damaged bytes were written away without a copy.)
    @Test func damageMetAgainAfterTheQuarantineWasReplacedIsKept() throws {
        try Self.withStorage { storage in
            let entry = JournalQuarantine.Entry(file: "segment-000000000001.log", offset: 10, bytes: [1, 2, 3][...], reason: "bad checksum")
            let other = JournalQuarantine.Entry(file: "segment-000000000002.log", offset: 20, bytes: [4, 5, 6][...], reason: "bad checksum")
            try JournalQuarantine.add([entry], at: Date(timeIntervalSince1970: 1_764_000_000), to: storage)
            try Self.withStorage { scratch in
                try JournalQuarantine.add([other], at: Date(timeIntervalSince1970: 1_764_000_000), to: scratch)
                #expect(rename(scratch.path(JournalQuarantine.fileName), storage.path(JournalQuarantine.fileName)) == 0)
            }
            try JournalQuarantine.add([entry], to: storage)
            let text = String(decoding: try #require(FileManager.default.contents(atPath: storage.path(JournalQuarantine.fileName))), as: UTF8.self)
            #expect(text.contains("segment-000000000001.log"), "\(text)")
        }
    }

    /// Runs `body` with a file store in a new directory, removed after.
    static func withStorage(_ body: (FileJournalStorage) throws -> Void) throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let storage = FileJournalStorage(directory: directory)
        defer { storage.close() }
        try body(storage)
    }

    /// Damage met after `quarantine.log` was changed is kept in the file now at the name.
    @Test(arguments: Change.allCases)
    func damageIsKeptInTheQuarantineAtItsName(_ change: Change) throws {
        try Self.withStorage { storage in
            let first = JournalQuarantine.Entry(file: "segment-000000000001.log", offset: 10, bytes: [1, 2, 3][...], reason: "bad checksum")
            let second = JournalQuarantine.Entry(file: "segment-000000000002.log", offset: 20, bytes: [4, 5, 6][...], reason: "bad checksum")
            try JournalQuarantine.add([first], to: storage)
            try change.make(storage.path(JournalQuarantine.fileName))
            try JournalQuarantine.add([second], to: storage)
            let log = try #require(FileManager.default.contents(atPath: storage.path(JournalQuarantine.fileName)))
            let text = String(decoding: log, as: UTF8.self)
            #expect(text.contains("segment-000000000002.log"))
            #expect(text.contains("segment-000000000001.log") == change.keepsEarlierLetters)
        }
    }
}

extension RelayProcessSuite.JournalChangedWhileInUseTests {
    /// The relay, its vendor refusing every event: `dead-letters.log` deleted or emptied while it runs,
    /// the events that follow are dead-lettered all the same (none left pending) into the file at its name.
    /// (It expected exactly the 20 letters after the change, and failed once in a whole run of the suite on
    /// two busy cores with all 40: the change fell inside the write of the first 20's letters.)
    @Test(arguments: [SideLogChangedTests.Change.deleted, .emptied])
    func aRelayGoesOnDeadLetteringAfterItsLettersAreRemoved(_ change: SideLogChangedTests.Change) async throws {
        try await IntegrationSuite.withVendorAndAJournal { server, directory in
            try await server.configure(bad: (1...40).map { "P-\($0)" })
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                                          "--api-key", "k", "--durability", "strict", "--deadline", "10"])
            relay.feed(Self.lines(1...20), keepOpen: true)
            // Read beside the relay (a reading takes no lock); a letter being written reads as damage.
            let reader = FileJournalStorage(directory: directory)
            defer { reader.close() }
            #expect(await relay.waitUntil { _ in (try? DeadLetterStore(storage: reader, durable: true).list().count) == 20 })
            try change.make(reader.path(DeadLetterStore.fileName))
            relay.feed(Self.lines(21...40))
            #expect(relay.wait() == 0, "\(relay.stderr)")
            #expect(relay.acknowledged.count == 40)
            #expect(relay.stderr.contains("pending 0,"), "\(relay.stderr)")
            let journal = try RelayProcess(["journal", directory.path])
            #expect(journal.wait() == 0)
            #expect(journal.stdout.hasPrefix("pending 0\ndead-lettered "), "\(journal.stdout)")
            // Every letter of 21 to 40 is in the file now at the name. Those of 1 to 20 were there before the
            // change; a change that fell inside the write of some of them (after the reader saw them, before
            // the relay's sync returned: seen under load) has them written once more, to the file now at
            // the name: duplicates, never a loss.
            let products = journal.stdout.split(separator: "\n").compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("P-") }.map { String($0.dropLast()) }
            }
            #expect(Set(products).isSuperset(of: (21...40).map { "P-\($0)" }), "\(journal.stdout)")
            #expect(Set(products).isSubset(of: (1...40).map { "P-\($0)" }), "\(journal.stdout)")
            #expect(products.count == Set(products).count, "each letter once: \(journal.stdout)")
        }
    }
}
