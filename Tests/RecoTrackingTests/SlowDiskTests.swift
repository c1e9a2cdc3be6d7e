import Foundation
import Testing
@testable import RecoTracking
import RecoKit
import RecoKitTesting

/// A disk slow to `fsync` (seconds, on a busy or throttled volume) costs a batched tracker's commits
/// their time, never a thread the process's tasks need: each commit waits on a thread of its own. It
/// waited on one of Swift's cooperative threads, as many as the machine has cores, so a few trackers
/// (or one, and a request handler in `track` waiting for the same flush) stopped every task of the
/// process until the disk answered: a server's handlers and timers included.
@Suite("A slow disk")
struct SlowDiskTests {
    /// Holds every `sync` until it is opened; passes everything to a simulated disk.
    final class HeldSyncStorage: JournalStorage, @unchecked Sendable {
        let storage = FaultyStorage(seed: 1)
        let gate: Gate
        init(_ gate: Gate) { self.gate = gate }
        var location: String { storage.location }
        func lock(exclusive: Bool) throws(JournalStorageError) { storage.lock(exclusive: exclusive) }
        func exists() -> Bool { storage.exists() }
        func list() throws(JournalStorageError) -> [String] { try storage.list() }
        func size(_ name: String) throws(JournalStorageError) -> Int? { try storage.size(name) }
        func read(_ name: String, offset: Int, count: Int) throws(JournalStorageError) -> [UInt8] { try storage.read(name, offset: offset, count: count) }
        func append(_ name: String, _ bytes: ArraySlice<UInt8>) throws(JournalStorageError) -> Int { try storage.append(name, bytes) }
        func sync(_ name: String) throws(JournalStorageError) {
            gate.pass()
            try storage.sync(name)
        }
        func truncate(_ name: String, to size: Int) throws(JournalStorageError) { try storage.truncate(name, to: size) }
        func replace(_ name: String, with bytes: [UInt8], durable: Bool) throws(JournalStorageError) {
            try storage.replace(name, with: bytes, durable: durable)
        }
        func remove(_ name: String) throws(JournalStorageError) { try storage.remove(name) }
        func close() { storage.close() }
    }

    /// Where the `sync`s wait: closed until opened, counting who waits.
    final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var isOpen = false
        private var waiting = 0

        func pass() {
            condition.lock()
            defer { condition.unlock() }
            waiting += 1
            condition.broadcast()
            while !isOpen { condition.wait() }
            waiting -= 1
        }

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }

        /// Waits (blocking its thread) until `count` wait at the gate, at most `timeout` seconds.
        func waitUntil(waiting count: Int, timeout: TimeInterval) -> Bool {
            let end = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while waiting < count, !isOpen { guard condition.wait(until: end) else { return waiting >= count } }
            return waiting >= count
        }
    }

    /// More trackers than the process has cooperative threads (they are as many as the cores, and may
    /// grow by as many again while they block), each with a commit held by the disk: the process's tasks
    /// still run. Run in a child process, where nothing but these trackers holds a thread.
    @Test("commits held by the disk hold no task thread (in the child)", .enabled(if: ChildTestProcess.isChild))
    func commitsHeldByTheDiskHoldNoTaskThread() async throws {
        let count = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let gate = Gate()
        // The gate opens 3 s after every commit waits, whatever happens: with the commits on cooperative
        // threads, this test's own task cannot run until then.
        Thread.detachNewThread {
            _ = gate.waitUntil(waiting: count, timeout: 20)
            usleep(3_000_000)
            gate.open()
        }
        var configuration = TrackerSetup(journal: nil, durability: .batched(every: .milliseconds(10)))
        configuration.flushInterval = .seconds(3600)
        var trackers: [Tracker] = []
        for _ in 0..<count {
            let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, storage: HeldSyncStorage(gate),
                                      transport: ScriptedTransport([]), clock: SystemTrackingClock())
            try tracker.track(Fixtures.click("P-1"))
            trackers.append(tracker)
        }
        let (held, waited) = try await watchingTaskThreads {
            let held = try await blockingWork { gate.waitUntil(waiting: count, timeout: 20) }
            // A while with every commit held, for a held thread to show.
            try await Task.sleep(for: .milliseconds(500))
            return held
        }
        gate.open()
        print("\(count) commits held by the disk: the process's tasks waited at most \(waited) for a thread")
        #expect(held, "the commits never all reached the disk")
        #expect(waited < .seconds(1))
        for tracker in trackers { _ = await tracker.shutdown(deadline: .seconds(10)) }
        print("answered")
    }

    #if os(Linux)
    @Test("commits held by the disk hold no task thread", .enabled(if: !ChildTestProcess.isChild))
    func commitsHeldByTheDiskHoldNoTaskThreadInAChildProcess() async throws {
        let child = try await ChildTestProcess.run("SlowDiskTests/commitsHeldByTheDiskHoldNoTaskThread")
        #expect(child.ended && child.status == 0 && child.output.contains("answered"), "\(child.output.suffix(3000))")
    }
    #endif
}
