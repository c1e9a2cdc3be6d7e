import Foundation
import Testing

extension IntegrationSuite {
    /// Real `recokit relay` processes whose journal directory's own `fsync` or `open` fails
    /// (`Fixtures/journal-faults.c` preloaded). A file's `fsync` does not make its name durable: the
    /// directory's does. Until this was checked, a failure there was ignored, and a relay that started a
    /// new segment while out of file descriptors (as a server under load is), or on a disk failing the
    /// directory's `fsync`, acknowledged every line written to it: a power loss could take the whole
    /// segment, name and all. Such a power loss is stood in for by deleting the files whose names were
    /// never made durable.
    @Suite("The journal directory's fsync or open fails under a running relay", .serialized,
           .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "LD_PRELOAD shim (Linux)"))
    struct DirectoryFaultTests {
        /// The directory fails from the moment the second segment exists (the first fills at 8 MiB, about
        /// 64,000 of these lines): the relay stops there, names the error, and no acknowledged line is in
        /// the segment a power loss could take.
        @Test(arguments: JournalFaultShim.Fault.namingFaults)
        func aSegmentWhoseNameCannotBeMadeDurableHoldsNoAcknowledgedLine(fault: JournalFaultShim.Fault) async throws {
            try await IntegrationSuite.withVendorDownAndAJournal { server, directory in
                let second = directory.appendingPathComponent("segment-000000000002.log")
                let count = 80_000
                let relay = try RelayProcess(RelayProcessSuite.RelayDamageTests.relayArguments(directory, server) + ["--deadline", "1"],
                                             environment: JournalFaultShim.environment(fault, directory: directory, trigger: second))
                relay.feed((1...count).map(RelayProcessSuite.RelayDamageTests.line))
                let status = relay.wait()
                let acknowledged = relay.acknowledged.count
                print("DirectoryFaultTests: \(fault.rawValue): \(acknowledged) of \(count) lines acknowledged, status \(status)")
                #expect(status == 1, "\(relay.stderr.suffix(600))")
                let reason = String(format: fault.reason, directory.path)
                #expect(relay.stderr.contains("cannot make the name of \(second.path) durable: \(reason)"), "\(relay.stderr.suffix(600))")
                #expect(acknowledged > 0 && acknowledged < count, "the first segment's lines are acknowledged, and not all fit in it")

                // The power goes: the second segment's name was never made durable, so it goes with it.
                try? FileManager.default.removeItem(at: second)
                let look = try RelayProcess(["journal", directory.path])
                #expect(look.wait() == 0, "\(look.stderr) \(look.stdout)")
                let pending = look.number(after: "pending")
                // Lines are acknowledged in order, one event each: lines 1…acknowledged must all still be there.
                #expect((pending ?? 0) >= acknowledged, "\(acknowledged) lines acknowledged, \(pending ?? 0) events left after the power loss")
            }
        }

        /// A journal whose directory cannot be made durable at all: the relay refuses to start, before it
        /// takes any line (a killed relay's files, or the first segment, need their names made durable).
        @Test(arguments: JournalFaultShim.Fault.namingFaults)
        func aDirectoryThatCannotBeMadeDurableTakesNoLine(fault: JournalFaultShim.Fault) async throws {
            try await IntegrationSuite.withVendorDownAndAJournal { server, directory in
                // Made by a first run, as a relay killed and started again finds it.
                let first = try RelayProcess(RelayProcessSuite.RelayDamageTests.relayArguments(directory, server) + ["--deadline", "1"])
                first.feed((1...10).map(RelayProcessSuite.RelayDamageTests.line))
                #expect(first.wait() == 0, "\(first.stderr)")
                let relay = try RelayProcess(RelayProcessSuite.RelayDamageTests.relayArguments(directory, server) + ["--deadline", "1"],
                                             environment: JournalFaultShim.environment(fault, directory: directory, trigger: directory))
                relay.feed((11...20).map(RelayProcessSuite.RelayDamageTests.line))
                #expect(relay.wait() == 1, "\(relay.stderr)")
                #expect(relay.acknowledged.isEmpty, "\(relay.stdout)")
                // Out of descriptors, the directory cannot even be opened to lock it; its fsync failing, a name
                // cannot be made durable.
                let said = fault == .openFails ? "error: " : "durable: "
                #expect(relay.stderr.contains(said + String(format: fault.reason, directory.path)), "\(relay.stderr)")
            }
        }

        /// A file system that cannot lock (`ENOLCK`: a network file system without its lock service) is
        /// named as such, for the relay and for a read-only look: it was "in use by another process", and
        /// an operator who knew no other process ran would take the lock file for a stale one.
        @Test func aFileSystemThatCannotLockIsNotTakenForAnotherProcess() async throws {
            try await IntegrationSuite.withVendorDownAndAJournal { server, directory in
                let first = try RelayProcess(RelayProcessSuite.RelayDamageTests.relayArguments(directory, server) + ["--deadline", "1"])
                first.feed((1...3).map(RelayProcessSuite.RelayDamageTests.line))
                #expect(first.wait() == 0, "\(first.stderr)")
                let fault = try JournalFaultShim.environment(.lockFails, directory: directory, trigger: URL(fileURLWithPath: "/"))
                let reason = String(format: JournalFaultShim.Fault.lockFails.reason, directory.appendingPathComponent("lock").path)
                let relay = try RelayProcess(RelayProcessSuite.RelayDamageTests.relayArguments(directory, server) + ["--deadline", "1"], environment: fault)
                relay.feed((4...6).map(RelayProcessSuite.RelayDamageTests.line))
                #expect(relay.wait() == 1, "\(relay.stderr)")
                #expect(relay.acknowledged.isEmpty, "\(relay.stdout)")
                let look = try RelayProcess(["journal", directory.path], environment: fault)
                #expect(look.wait() != 0, "\(look.stdout)")
                for (name, text) in [("relay", relay.stderr), ("journal", look.stderr)] {
                    #expect(text.contains("\(reason) (the journal needs a file system that can lock its files"), "\(name): \(text)")
                    #expect(!text.contains("in use"), "\(name): \(text)")
                }
            }
        }
    }
}
