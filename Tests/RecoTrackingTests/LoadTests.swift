import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

extension IntegrationSuite {
    /// A backlog of hundreds of thousands of events while the vendor is down, then delivered when it comes
    /// back: every event arrives once, and the memory it takes does not grow with the backlog (the journal
    /// keeps it on disk). Memory is measured on a `recokit relay` child, against the same run with a small
    /// backlog: this process's own resident memory is shared with every suite running beside it.
    @Suite("Load: a large backlog while the vendor is down", .serialized)
    struct LoadTests {
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
                for number in 0..<2000 { try tracker.track(Fixtures.click("WARM-\(number)")) }
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
                #expect(backlog.accepted == 202_000)
                #expect(backlog.delivered == 0, "the server was down")
                #expect(backlog.pending == 202_000)
                #expect(backlog.journalBytes > 30_000_000, "the backlog is on disk")

                try await server.configure(down: false)
                await tracker.waitUntilDelivered(limit: .seconds(150))
                let summary = await tracker.shutdown(deadline: .seconds(5))
                #expect(summary == ShutdownSummary(delivered: 202_000, pending: 0, deadLettered: 0))
                let received = try await server.received()
                #expect(Set(received.map(\.id)).count == 202_000)
            }
        }

        /// Peak resident memory (VmHWM) of a relay that takes `lines` clicks while the vendor is down, then
        /// delivers them once it is up; checks that each was delivered.
        func relayPeak(lines: Int, server: ScriptedServer, journal: URL) async throws -> Int {
            try await server.configure(down: true)
            let prefix = "L\(lines)-"
            let relay = try RelayProcess(["relay", "--journal", journal.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                                          "--api-key", "load-key", "--durability", "batched", "--deadline", "150"])
            relay.feed((1...lines).map { #"{"type":"click","instanceId":"rec_pdp_1","productId":"\#(prefix)\#($0)","userId":"u1","sessionId":"s1"}"# },
                       keepOpen: true)
            var peak = 0
            func sample() {
                let status = "/proc/\(relay.process.processIdentifier)/status"
                if let text = try? String(contentsOfFile: status, encoding: .utf8),
                   let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                   let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") {
                    peak = max(peak, kilobytes * 1024)
                }
            }
            let end = ContinuousClock.now + .seconds(120)
            while relay.answeredCount < lines, relay.process.isRunning, ContinuousClock.now < end {
                sample()
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(relay.acknowledged.count == lines, "acknowledged \(relay.acknowledged.count) of \(lines): \(relay.stderr.suffix(600))")
            try await server.configure(down: false)
            relay.closeInput()
            while relay.process.isRunning {
                sample()
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(relay.wait() == 0, "\(relay.stderr.suffix(600))")
            let received = Set(try await server.received().map(\.product).filter { $0.hasPrefix(prefix) })
            #expect(received.count == lines, "delivered \(received.count) of \(lines)")
            return peak
        }

        @Test func aBacklogTakesTheSameMemoryAsAFewEvents() async throws {
            #if os(Linux)
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let small = try await relayPeak(lines: 2_000, server: server, journal: directory.appendingPathComponent("small"))
                let large = try await relayPeak(lines: 200_000, server: server, journal: directory.appendingPathComponent("large"))
                // Held in memory, 200,000 events would take well over 100 MB (their journal alone is over 30 MB).
                #expect(large - small < 20 << 20, "a backlog of 200,000 took \((large - small) >> 20) MB more (\(large >> 20) MB against \(small >> 20) MB)")
                print("a relay's peak memory: \(small >> 20) MB for 2,000 events, \(large >> 20) MB for a backlog of 200,000")
            }
            #endif
        }
    }
}
