import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// The marks of the deliveries a stopped process cut short (`delivering`), which the disk fails to read
/// when the store opens. They hold no event (each batch goes out again as ever), only the count of cut
/// short deliveries that stops a reply that takes the process down from being sent for ever; so the
/// failure is named as a disk error met while delivering, and the first claim reads them again before it
/// writes them anew. The failure was passed over (no error, the batch's attempts counted from 0 again).
extension JournalFaultTests {
    static let everything = ClaimRequest(maxEvents: 50, maxBytes: 1 << 20, linger: .zero, force: true)

    @Test(arguments: [0, 1, 2])
    func marksTheDiskFailsToReadAreNamedAndReadAgain(failedReads: Int) async throws {
        let before = FaultyStorage(seed: 6)
        do {
            let (journal, _) = try open(before)
            for number in 1...10 { _ = try journal.append(payload(number)) }
            try journal.commit()
            journal.close()
            // The last process stopped while it was delivering the first batch.
            let store = try JournalStore(storage: before, durability: .batched, maxBytes: 1 << 30, segmentBytes: 1 << 20)
            _ = try #require(try await store.claim(Self.everything))
        }
        let storage = FaultyStorage(disk: before.disk.afterProcessCrash(), seed: 7)
        if failedReads > 0 { storage.arm(.error(.failed), on: .read, file: DeliveryMarks.fileName, after: 0, times: failedReads) }
        let store = try JournalStore(storage: storage, durability: .batched, maxBytes: 1 << 30, segmentBytes: 1 << 20)
        #expect(store.recoveryReport.interruptedDeliveries == (failedReads == 0 ? 1 : 0))
        #expect(store.status.deliveryFaults == min(failedReads, 1))
        if failedReads > 0 {
            #expect(store.status.lastDeliveryFault?.contains("simulated EIO on read delivering") == true, "\(store.status)")
        }
        let batch = try #require(try await store.claim(Self.everything))
        #expect(batch.records.count == 10)
        // Read again at the claim: the delivery cut short is counted when the second read goes through; when it
        // fails too, that is named, and the count starts again.
        #expect(batch.attempts == (failedReads < 2 ? 1 : 0))
        #expect(store.status.deliveryFaults == failedReads)
        #expect(storage.fired.count == failedReads)
        try await store.close()
    }
}
