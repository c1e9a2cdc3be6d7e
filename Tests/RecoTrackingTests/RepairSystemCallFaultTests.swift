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
            let (server, directory, log, common) = (setting.server, setting.directory, setting.log, setting.relay)
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

            // Round 0 only counts the calls a repair makes, for the rounds to pick from.
            let name = round == 0 ? "" : made.filter { $0.value > 0 }.keys.sorted().randomElement(using: &random) ?? ""
            let call = round == 0 ? 0 : Int.random(in: 1...max(1, made[name] ?? 1), using: &random)
            let error = Self.errors.randomElement(using: &random)!
            let times = Self.runs.randomElement(using: &random)!
            let what = "seed \(seed) round \(round): \(name) \(call) of \(made[name] ?? 0), \(error) ×\(times), line \(damaged) damaged in \(segment)"
            let repair = try RelayProcess(["journal", directory.path, "--repair"],
                                          environment: JournalFaultShim.call(call, named: name, error: error, repeat: times, directory: directory, log: log))
            let (status, counted) = try Self.finished(repair, log: log, counting: false, what: what)
            #expect(status != 0, "\(what): a repair that found damage fails its run: \(repair.stdout.suffix(400))")
            if round == 0 {
                made = counted.made
                print("RepairSystemCallFaultTests: the calls a repair of one damaged record makes: \(Self.describe(made))")
                continue
            }
            Self.expectShown(counted, error: error, status: status, output: repair.stdout + repair.stderr, what: what)
            // The operator runs it again, the disk well, and a relay drains.
            let again = try RelayProcess(["journal", directory.path, "--repair"])
            _ = again.wait()
            let drain = try RelayProcess(common + ["--drain", "--deadline", "30"])
            _ = drain.wait()
            let received = Set(try await server.received().map(\.id))
            let missing = acknowledged.filter { !$0.value.allSatisfy(received.contains) }.keys.sorted()
            print("RepairSystemCallFaultTests: \(what): first failed \(counted.first) \(counted.file) (\(counted.fired) failed); "
                  + "repair status \(status); missing \(missing)")
            let lost = "\(what): lines \(missing.prefix(5)) (\(missing.count)) never delivered; repair: "
                + "\(repair.stdout.suffix(400)) \(repair.stderr.suffix(400)); again: \(again.stdout.suffix(300)); drain: \(drain.stderr.suffix(300))"
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
