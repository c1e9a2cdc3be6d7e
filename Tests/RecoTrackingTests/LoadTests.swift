import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

extension IntegrationSuite {
    @Suite("Load: a large backlog while the vendor is down", .serialized)
    struct LoadTests {
        /// Resident memory of this process, from /proc/self/status (VmRSS, in bytes).
        static func residentBytes() -> Int {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
        }

        @Test func twoHundredThousandEventsFromSixteenTasksWhileDownThenUp() async throws {
            try await IntegrationSuite.withVendorDownAndAJournal { server, directory in
                var configuration = TrackerSetup(journal: directory, durability: .batched)
                configuration.flushInterval = .milliseconds(100)
                configuration.segmentBytes = 2 * 1024 * 1024
                configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(250))
                let destination = SegmentifyDestination(dataCenter: server.base, apiKey: "load-key", origin: "www.shop.example", maxEvents: 500)
                let tracker = try Tracker(destination: destination, configuration: configuration)
                let tasks = 16
                let perTask = 12_500
                // Warm up allocator and runtime before the baseline.
                for number in 0..<2000 { try tracker.track(Fixtures.click("WARM-\(number)")) }
                let baseline = Self.residentBytes()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for task in 0..<tasks {
                        group.addTask {
                            for number in 0..<perTask {
                                try tracker.track(Fixtures.click("T\(task)-\(number)"))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                try await tracker.commit()
                let backlog = tracker.statistics
                let afterBacklog = Self.residentBytes()
                #expect(backlog.accepted == 202_000)
                #expect(backlog.delivered == 0, "the server was down")
                #expect(backlog.pending == 202_000)
                #expect(backlog.journalBytes > 30_000_000, "the backlog is on disk")

                try await server.configure(down: false)
                await tracker.waitUntilDelivered(limit: .seconds(150))
                let afterDelivery = Self.residentBytes()
                let summary = await tracker.shutdown(deadline: .seconds(5))
                #expect(summary == ShutdownSummary(delivered: 202_000, pending: 0, deadLettered: 0))
                let received = try await server.received()
                #expect(Set(received.map(\.id)).count == 202_000)
                // Holding the backlog in memory would take well over 100 MB; the journal keeps it on disk.
                let growth = max(afterBacklog, afterDelivery) - baseline
                #expect(growth < 40 * 1024 * 1024, "resident memory grew by \(growth / 1024 / 1024) MiB")
                print("load: baseline \(baseline / 1024) KiB, after backlog \(afterBacklog / 1024) KiB, after delivery \(afterDelivery / 1024) KiB")
            }
        }
    }
}
