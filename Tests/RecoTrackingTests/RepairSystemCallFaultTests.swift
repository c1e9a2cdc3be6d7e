import Foundation
import Testing
import RecoKitTesting

extension IntegrationSuite.JournalSystemCallFaultTests {
    /// `recokit journal --repair` (damage moved to quarantine, each damaged segment rewritten) with one of
    /// its system calls on the journal's files failing, as ``everyAcknowledgedLineSurvivesAFailedSystemCall()``
    /// does for the relay: a relay journals lines while the vendor is down, over several segments; one
    /// line's record gets a flipped byte; a repair meets the fault, the operator runs it again without,
    /// and a drain delivers. No run may crash, a failed call shows in the exit status with the system's
    /// words, and every acknowledged line but the damaged one reaches the vendor: a repair cut short by
    /// the disk loses nothing the damage did not. Seeded with the same variables
    /// (`RECOKIT_SYSCALL_FAULT_SEED`; `RECOKIT_SYSCALL_FAULT_ROUNDS`, halved here; 6 rounds by default).
    @Test func everyUndamagedLineSurvivesARepairWhoseSystemCallFails() async throws {
        let (seed, rounds) = Self.choices("everyUndamagedLineSurvivesARepairWhoseSystemCallFails", rounds: 6, share: 2)
        var random = SeededRandom(seed: seed)
        let count = 600
        var made: [String: Int] = [:]
        for round in 0...rounds {
            let setting = try Round()
            let (server, directory, common) = (setting.server, setting.directory, setting.relay)
            try await server.configure(down: true)
            let relay = try RelayProcess(common + ["--deadline", "0", "--durability", "strict"])
            // In ten pieces, each committed on its own: the lines fill several segments.
            for piece in 0..<10 {
                relay.feed((piece * count / 10 + 1...(piece + 1) * count / 10).map { Self.line(round: round, number: $0) }, keepOpen: true)
                try await Task.sleep(for: .milliseconds(20))
            }
            relay.closeInput()
            #expect(relay.wait() == 0, "\(relay.stderr.suffix(600))")
            let acknowledged = relay.acknowledged
            try await server.configure(down: false)
            let damaged = Int.random(in: 1...count, using: &random)
            let segment = try Self.flipAByte(of: "F\(round)-\(damaged)", in: directory)

            guard let run = try await Self.journalCommand("--repair", round: round, seed: seed, setting: setting, made: &made, random: &random,
                                                          fails: true, about: "line \(damaged) is damaged in \(segment)") else { continue }
            let missing = acknowledged.filter { !$0.value.allSatisfy(run.received.contains) }.keys.sorted()
            let lost = "\(run.what): lines \(missing.prefix(5)) (\(missing.count)) never delivered; repair: "
                + "\(run.output.suffix(800)); again: \(run.again.suffix(300)); drain: \(run.drain.suffix(300))"
            #expect(missing == [damaged], "\(lost)")
        }
    }

    /// Flips a bit inside the record of the product `product` in the journal's segments (its record's
    /// checksum then fails): the segment's name.
    static func flipAByte(of product: String, in directory: URL) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("segment-") }.sorted()
        for name in names {
            let file = directory.appendingPathComponent(name)
            var bytes = try [UInt8](Data(contentsOf: file))
            guard let index = place(of: product, in: bytes) else { continue }
            bytes[index + 1] ^= 0x04
            try Data(bytes).write(to: file)
            return name
        }
        throw TestFailure("no record of \(product) in \(names)")
    }
}
