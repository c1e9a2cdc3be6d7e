import Foundation
import Testing
@testable import RecoTracking

/// The marks of the batches out for delivery, written over in place at every claim and settlement: what
/// the file held before never reads as a mark, and a file grown by many batches at once shrinks again.
@Suite("Delivery marks written in place")
struct DeliveryMarksTests {
    static func marks(_ count: Int, from first: Int = 0) -> [JournalPosition: Int] {
        Dictionary(uniqueKeysWithValues: (first..<first + count).map { (JournalPosition(segment: UInt64($0 % 7 + 1), offset: $0 * 4_099), $0 % 5) })
    }

    @Test func marksWrittenOverLeaveNothingOfTheOldOnes() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileJournalStorage(directory: directory)
        defer { storage.close() }
        let file = directory.appendingPathComponent(DeliveryMarks.fileName)
        func size() throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) }

        // Fewer marks than before: the same file, its old lines blanked.
        try DeliveryMarks.write(Self.marks(40), to: storage)
        let grown = try size()
        let inode = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        for (count, first) in [(3, 10), (0, 0), (1, 7), (39, 1)] {
            try DeliveryMarks.write(Self.marks(count, from: first), to: storage)
            #expect(try DeliveryMarks.read(storage) == Self.marks(count, from: first), "\(count) marks written over 40")
            #expect(try size() == grown)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == inode)
        }
        // Many batches out at once grow it past a page; once they are settled it is replaced by a small one.
        try DeliveryMarks.write(Self.marks(2_000), to: storage)
        #expect(try DeliveryMarks.read(storage) == Self.marks(2_000))
        #expect(try size() > 4_096)
        try DeliveryMarks.write(Self.marks(2), to: storage)
        #expect(try DeliveryMarks.read(storage) == Self.marks(2))
        #expect(try size() < 100)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [DeliveryMarks.fileName])
    }
}
