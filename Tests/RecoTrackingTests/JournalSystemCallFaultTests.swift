import Foundation
import Testing
import RecoKitTesting

extension IntegrationSuite {
    /// Real `recokit relay` processes, the vendor answering, with one system call on their journal's files
    /// failing (`Fixtures/journal-faults.c` preloaded): the n-th of all the relay makes on them (`open`,
    /// `write`, `pwrite`, `pread`, `fsync`, `ftruncate`, `rename`, `unlink`, from any thread: appending, committing,
    /// reading batches back, moving the checkpoint, deleting delivered segments), failing with `EIO`,
    /// `ENOSPC`, `EROFS`, `EDQUOT` or as a short write, alone or with the calls after it. The simulation
    /// checks the journal's logic against a model of storage; this checks the real file storage, its error
    /// mapping and the relay around them, on the real system calls.
    ///
    /// A first run counts the calls a relay makes for these lines, by name. Each round then picks a name
    /// and one of its calls to fail; one round in three starts from a journal a relay left while the vendor
    /// was down (recovery meets the fault), one in three has the vendor refuse some products (their dead
    /// letters meet it); a drain without faults then delivers what is left. No run may crash, a relay that
    /// met a failed call must exit non-zero and name it (even when trying again got past it; a short
    /// write, finished by the next, is no failure), and every line acknowledged must reach the vendor or,
    /// for a refused product, the dead letters. Seeded: the seed is printed, `RECOKIT_SYSCALL_FAULT_SEED=N`
    /// replays its choices (the n-th call is the same call only as far as threads interleave the same
    /// way), and `RECOKIT_SYSCALL_FAULT_ROUNDS` sets the number of rounds (12 by default).
    @Suite("A journal's system calls failing under a running relay", .serialized,
           .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "LD_PRELOAD shim (Linux)"))
    struct JournalSystemCallFaultTests {
        static func line(round: Int, number: Int) -> String {
            #"{"type":"click","instanceId":"rec_pdp_1","productId":"F\#(round)-\#(number)","position":\#(number % 12 + 1),"#
                + #""userId":"-897541074991628287","sessionId":"-2739101928374651","lang":"TR","pageUrl":"https://www.shop.example/"}"#
        }

        /// A failing disk, a full one, a file system remounted read-only after errors (ext4's
        /// `errors=remount-ro`), a quota used up, and a write that takes part of its bytes.
        static let errors = ["EIO", "ENOSPC", "EROFS", "EDQUOT", "SHORT"]
        /// How many calls fail from the picked one: one, a few, or a disk that stays bad for a while.
        static let runs = [1, 1, 2, 5, 40]

        /// The seed (`RECOKIT_SYSCALL_FAULT_SEED`, else a random one) and the rounds (`RECOKIT_SYSCALL_FAULT_ROUNDS`
        /// divided by `share`, else `rounds`), the seed printed with the command that replays `test`.
        static func choices(_ test: String, rounds: Int, share: Int = 1) -> (seed: UInt64, rounds: Int) {
            let environment = ProcessInfo.processInfo.environment
            let seed = environment["RECOKIT_SYSCALL_FAULT_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
            let asked = environment["RECOKIT_SYSCALL_FAULT_ROUNDS"].flatMap(Int.init).map { max(1, $0 / share) }
            print("\(test) seed \(seed) (replay: RECOKIT_SYSCALL_FAULT_SEED=\(seed) swift test --filter \(test))")
            return (seed, asked ?? rounds)
        }

        /// One round's vendor (its own: what it received is asked for whole), journal directory and call log,
        /// all gone with it.
        final class Round {
            let server: ScriptedServer
            let directory = Fixtures.temporaryDirectory()
            let log = Fixtures.temporaryFile(extension: "log")

            init() throws { server = try ScriptedServer() }

            /// `recokit relay` on this round's journal and vendor, with segments of 16 KiB: a round's lines
            /// fill about ten, so faults also meet a new segment's creation and its name's `fsync`, and the
            /// deletion of delivered ones.
            var relay: [String] {
                ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                 "--api-key", "test-key", "--origin", "www.shop.example", "--segment-bytes", "16384"]
            }

            deinit {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
                try? FileManager.default.removeItem(at: log)
            }
        }

        /// A child run under the shim, once it exited: its status and call log. It must not crash, and the
        /// counting run (`counting`) must succeed.
        static func finished(_ child: RelayProcess, log: URL, counting: Bool, what: String) throws -> (status: Int32, counted: JournalFaultShim.CallLog) {
            let status = child.wait()
            let output = String((child.stdout + child.stderr).suffix(800))
            let counted = try #require(JournalFaultShim.CallLog(log), "\(what): no call log (status \(status)): \(output)")
            #expect(child.process.terminationReason == .exit, "\(what): crashed: \(output)")
            if counting { #expect(status == 0, "the counting run: \(output)") }
            return (status, counted)
        }

        /// Checks that a failed call shows in the exit status with the system's words; a short write
        /// finished by the next write is no failure. Returns whether it had to show.
        @discardableResult
        static func expectShown(_ counted: JournalFaultShim.CallLog, error: String, status: Int32, output: String, what: String) -> Bool {
            guard counted.fired > 0, error != "SHORT" || !["write", "pwrite"].contains(counted.first) else { return false }
            let named = ["Input/output error", "No space left on device", "Read-only file system", "Disk quota exceeded"].contains { output.contains($0) }
            #expect(status != 0 && named, "\(what): a failed \(counted.first) of \(counted.file) must show: status \(status), \(output.suffix(800))")
            return true
        }

        /// One round's case, as `RECOKIT_SYSCALL_FAULT_ROUND` gives it.
        struct ForcedRound {
            var name: String, call: Int, error: String, times: Int, strict: Bool, leftBehind: Bool, refusing: Bool
            /// `on=FILE`: only the calls on that file of the journal count (`on=DIR`: on the directory
            /// itself, whose `open` and `fsync` make a new file's name durable); all when empty.
            var file: String

            /// The file's name in `directory`'s journal, as the shim takes it.
            func file(in directory: URL) -> String { file == "DIR" ? directory.lastPathComponent : file }
        }

        /// Every round as `RECOKIT_SYSCALL_FAULT_ROUND` says, when set: `NAME CALL ERROR TIMES strict|batched`,
        /// then `left` (from a journal a relay left) and `refused` (some products refused) if wanted, as a
        /// round's line prints them: `open 25 SHORT 1 batched left refused` (and `on=FILE`). A seed replays the choices, and
        /// the call they pick is the same call only as far as the counting run counted the same; this runs
        /// one round's case again and again, for a fault that depends on timing.
        static let forcedRound: ForcedRound? = {
            guard let text = ProcessInfo.processInfo.environment["RECOKIT_SYSCALL_FAULT_ROUND"] else { return nil }
            let words = text.split(separator: " ").map(String.init)
            guard words.count >= 5, let call = Int(words[1]), let times = Int(words[3]) else { return nil }
            return ForcedRound(name: words[0], call: call, error: words[2], times: times, strict: words[4] == "strict",
                               leftBehind: words.contains("left"), refusing: words.contains("refused"),
                               file: words.first { $0.hasPrefix("on=") }.map { String($0.dropFirst(3)) } ?? "")
        }()

        /// The calls made of each name, in words.
        static func describe(_ made: [String: Int]) -> String {
            made.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }

        @Test func everyAcknowledgedLineSurvivesAFailedSystemCall() async throws {
            let (seed, rounds) = Self.choices("everyAcknowledgedLineSurvivesAFailedSystemCall", rounds: 12)
            var random = SeededRandom(seed: seed)
            let count = 1500
            var made: [String: Int] = [:]
            var shortWritesPassed = 0
            for round in 0...rounds {
                let setting = try Round()
                let (server, directory, log, common) = (setting.server, setting.directory, setting.log, setting.relay)
                // Round 0 only counts: the calls a relay makes for these lines, for the rounds to pick from: a
                // kind of call, then one of those made.
                var name = round == 0 ? "" : made.filter { $0.value > 0 }.keys.sorted().randomElement(using: &random) ?? ""
                var call = round == 0 ? 0 : Int.random(in: 1...max(1, made[name] ?? 1), using: &random)
                var error = Self.errors.randomElement(using: &random)!
                var times = Self.runs.randomElement(using: &random)!
                var strict = Bool.random(using: &random)
                // One round in three starts from a journal a relay left while the vendor was down: the fault
                // may then meet recovery and the delivery of those events too.
                var leftBehind = round > 0 && Int.random(in: 0..<3, using: &random) == 0
                var refusing = round > 0 && Int.random(in: 0..<3, using: &random) == 0
                if round > 0, let forced = Self.forcedRound {
                    (name, call, error, times, strict, leftBehind, refusing) =
                        (forced.name, forced.call, forced.error, forced.times, forced.strict, forced.leftBehind, forced.refusing)
                }
                var acknowledgedBefore: [Int: [String]] = [:]
                if leftBehind {
                    try await server.configure(down: true)
                    let before = try RelayProcess(common + ["--deadline", "0"])
                    before.feed((1...count).map { Self.line(round: -round, number: $0) })
                    #expect(before.wait() == 0, "\(before.stderr.suffix(600))")
                    acknowledgedBefore = before.acknowledged
                    try await server.configure(down: false)
                }
                // One round in three the vendor refuses one product in 97: its events are dead-lettered, so
                // the fault may meet the letters' file too.
                let refused = refusing
                    ? Set(stride(from: 97, through: count, by: 97).map { "F\(round)-\($0)" }) : []
                try await server.configure(bad: refused.sorted())
                let what = "seed \(seed) round \(round): \(name) \(call) of \(made[name] ?? 0), \(error) ×\(times), \(strict ? "strict" : "batched")"
                    + (leftBehind ? ", from a journal holding \(acknowledgedBefore.count) lines" : "")
                    + (refused.isEmpty ? "" : ", \(refused.count) products refused")
                let relay = try RelayProcess(common + ["--deadline", "10", "--durability", strict ? "strict" : "batched"],
                                             environment: JournalFaultShim.call(call, named: name, on: Self.forcedRound?.file(in: directory) ?? "", error: error,
                                                                                repeat: times, directory: directory, log: log))
                // In twenty pieces 15 ms apart, so that appending and committing make calls of their own beside
                // delivery's (and each commit may start a segment).
                for piece in 0..<20 {
                    relay.feed((piece * count / 20 + 1...(piece + 1) * count / 20).map { Self.line(round: round, number: $0) }, keepOpen: true)
                    try await Task.sleep(for: .milliseconds(15))
                }
                relay.closeInput()
                let (status, counted) = try Self.finished(relay, log: log, counting: round == 0, what: what)
                if round == 0 {
                    made = counted.made
                    print("JournalSystemCallFaultTests: the calls a relay makes on its journal for \(count) lines: \(Self.describe(made))")
                    continue
                }
                let acknowledged = relay.acknowledged.merging(acknowledgedBefore.map { (-$0.key, $0.value) }) { now, _ in now }
                // A failed call is the run's failure, named, wherever it was met (appending, reading back,
                // moving the checkpoint), even when trying again got past it.
                if !Self.expectShown(counted, error: error, status: status, output: relay.stderr, what: what), counted.fired > 0, status == 0 {
                    shortWritesPassed += 1
                }
                let drain = try RelayProcess(common + ["--drain", "--deadline", "30"])
                let drained = drain.wait()
                #expect(drain.process.terminationReason == .exit, "\(what): the drain crashed: \(drain.stderr.suffix(800))")
                let received = Set(try await server.received().map(\.id))
                // A refused product's line is dead-lettered instead (each at least once, as the journal counts).
                let refusedLines = Set(acknowledged.keys.filter { $0 > 0 && refused.contains("F\(round)-\($0)") })
                let missing = acknowledged.filter { !refusedLines.contains($0.key) && !$0.value.allSatisfy(received.contains) }.keys.sorted()
                if !refusedLines.isEmpty {
                    let look = try RelayProcess(["journal", directory.path])
                    _ = look.wait()
                    let letters = look.number(after: "dead-lettered") ?? 0
                    #expect(letters >= refusedLines.count, "\(what): \(refusedLines.count) refused lines acknowledged, \(letters) dead letters: \(look.stdout.prefix(400))")
                }
                print("JournalSystemCallFaultTests: \(what): first failed \(counted.first) \(counted.file) (\(counted.fired) failed); relay status \(status), "
                      + "\(relay.acknowledged.count) of \(count) lines acknowledged; drain status \(drained), missing \(missing.count)")
                var lost = "\(what): \(missing.count) acknowledged lines never delivered, lines \(missing.prefix(5))…; "
                    + "relay: \(relay.stderr.suffix(600)); drain: \(drain.stderr.suffix(600))"
                if !missing.isEmpty {
                    // Where the lost lines' bytes are now (segments, dead letters, quarantine, or nowhere), and
                    // what the journal and the vendor's log say: for the next engineer.
                    for number in missing.prefix(5) {
                        let product = number > 0 ? "F\(round)-\(number)" : "F-\(round)-\(-number)"
                        lost += "; \(product) (ids \(acknowledged[number] ?? [])) is in \(Self.files(holding: product, in: directory))"
                    }
                    let look = try RelayProcess(["journal", directory.path])
                    _ = look.wait()
                    lost += "; journal: \(look.stdout.prefix(600)); vendor's log: \(try await server.log().suffix(80))"
                    lost += "; relay's full stderr: \(relay.stderr.suffix(3000))"
                }
                #expect(missing.isEmpty, "\(lost)")
            }
            print("JournalSystemCallFaultTests: \(shortWritesPassed) of \(rounds) rounds met only short writes, finished by the next write")
        }
    }
}

extension IntegrationSuite.JournalSystemCallFaultTests {
    /// A call interrupted by a signal (`EINTR`: a handler of the host process installed without
    /// `SA_RESTART`, a sampling profiler's `SIGPROF`, on a network or FUSE file system) is made again: it
    /// says nothing of the disk. Seeded rounds pick a call the journal makes (`open`, `write`, `pread`,
    /// `fsync`, `ftruncate`, the checkpoint's and the delivery marks' `pwrite`, a delivered segment's `unlink`) and interrupt it
    /// and up to 39 after it; the relay must exit 0, report no disk error, and deliver every line. An
    /// interrupted `open`, `fsync`, `ftruncate`, `rename` or `unlink` stopped the relay as a failed disk
    /// (exit 1, "Interrupted system call").
    @Test func anInterruptedCallIsMadeAgain() async throws {
        let (seed, rounds) = Self.choices("anInterruptedCallIsMadeAgain", rounds: 8, share: 2)
        var random = SeededRandom(seed: seed)
        // As many lines, fed as the rounds above feed them, so that delivered segments are deleted (`unlink`).
        let count = 1500
        var made: [String: Int] = [:]
        let interruptible = ["open", "write", "pwrite", "pread", "fsync", "ftruncate", "rename", "unlink"]
        var met: Set<String> = []
        var order: [String] = []
        for round in 0...rounds {
            let setting = try Round()
            // Round 0 only counts; then each name the relay made in turn (in a seeded order), one of its calls
            // picked at random.
            let name = round == 0 ? "" : order[(round - 1) % order.count]
            // From the first half of the calls the counting run (batched, which makes the fewest) made, so
            // that the round, whose timing differs, surely makes the one picked.
            let call = round == 0 ? 0 : Int.random(in: 1...max(1, (made[name] ?? 1) / 2), using: &random)
            let times = round == 0 ? 1 : [1, 2, 40].randomElement(using: &random)!
            let strict = round > 0 && Bool.random(using: &random)
            let what = "seed \(seed) round \(round): \(name) \(call) of \(made[name] ?? 0) interrupted ×\(times), \(strict ? "strict" : "batched")"
            let relay = try RelayProcess(setting.relay + ["--deadline", "10", "--durability", strict ? "strict" : "batched"],
                                         environment: JournalFaultShim.call(call, named: name, error: "EINTR", repeat: times,
                                                                            directory: setting.directory, log: setting.log))
            for piece in 0..<20 {
                relay.feed((piece * count / 20 + 1...(piece + 1) * count / 20).map { Self.line(round: round, number: $0) }, keepOpen: true)
                try await Task.sleep(for: .milliseconds(15))
            }
            relay.closeInput()
            let (status, counted) = try Self.finished(relay, log: setting.log, counting: round == 0, what: what)
            if round == 0 {
                made = counted.made
                order = interruptible.filter { (made[$0] ?? 0) > 0 }.shuffled(using: &random)
                print("anInterruptedCallIsMadeAgain: the calls a relay makes for \(count) lines: \(Self.describe(made))")
                continue
            }
            if counted.fired > 0 { met.insert(name) }
            print("anInterruptedCallIsMadeAgain: \(what): \(counted.fired) interrupted; status \(status)")
            #expect(status == 0 && !relay.stderr.contains("Interrupted system call"), "\(what): \(relay.stderr.suffix(600))")
            #expect(relay.acknowledged.count == count, "\(what): \(relay.acknowledged.count) acknowledged")
            let received = Set(try await setting.server.received().map(\.id))
            let missing = relay.acknowledged.filter { !$0.value.allSatisfy(received.contains) }.keys.sorted()
            #expect(missing.isEmpty, "\(what): lines \(missing.prefix(5)) acknowledged and not delivered")
        }
        // Every name the relay made was interrupted at least once when the rounds went round them all.
        #expect(order.count >= 6, "seed \(seed): the relay made only \(order) of \(interruptible)")
        if rounds >= order.count {
            #expect(met == Set(order), "seed \(seed): interrupted only \(met.sorted()) of \(order)")
        }
    }

    /// A delivery checkpoint the disk cannot read (`EIO` opening it): delivery restarts at the oldest
    /// segment (duplicates, never loss), the note gives the system's words, and the run fails, for the
    /// relay and for `recokit journal`. It was "the delivery checkpoint was unreadable", as for bytes that
    /// hold no checkpoint, and exit 0: a disk failing reads went unseen (found by the rounds above).
    @Test func aCheckpointTheDiskCannotReadIsNamedAndFailsTheRun() async throws {
        try await IntegrationSuite.withVendorAndAJournal { server, directory in
            let common = ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                          "--api-key", "test-key", "--origin", "www.shop.example"]
            let first = try RelayProcess(common + ["--deadline", "10"])
            first.feed((1...10).map { Self.line(round: 1, number: $0) })
            #expect(first.wait() == 0, "\(first.stderr)")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("checkpoint").path))
            let log = Fixtures.temporaryFile(extension: "log")
            defer { try? FileManager.default.removeItem(at: log) }
            let fault = try JournalFaultShim.call(1, named: "open", on: "checkpoint", error: "EIO", repeat: 1, directory: directory, log: log)
            let relay = try RelayProcess(common + ["--deadline", "10"], environment: fault)
            relay.feed((1...5).map { Self.line(round: 2, number: $0) })
            let status = relay.wait()
            #expect(JournalFaultShim.CallLog(log)?.fired == 1)
            let note = "the delivery checkpoint could not be read (cannot open \(directory.path)/checkpoint: Input/output error); "
                + "delivery restarts at the oldest segment (duplicates possible)"
            #expect(status == 1, "\(relay.stderr)")
            #expect(relay.stderr.contains("relay: journal recovery: \(note)"), "\(relay.stderr)")
            let received = Set(try await server.received().map(\.id))
            #expect(relay.acknowledged.count == 5 && relay.acknowledged.values.allSatisfy { $0.allSatisfy(received.contains) }, "\(relay.stderr)")
            let look = try RelayProcess(["journal", directory.path], environment: fault)
            #expect(look.wait() == 1, "\(look.stdout)")
            #expect(look.stdout.contains("note: \(note)"), "\(look.stdout)")
        }
    }

    /// The marks of the deliveries a stopped process cut short (`delivering`), which the disk fails to read
    /// as the relay opens the journal (`EIO` on their `pread`): the relay delivers every line, and exits
    /// non-zero naming the disk's error. The failed read was passed over (the marks counted as none) and
    /// the relay exited 0.
    @Test func deliveryMarksTheDiskCannotReadAreNamed() async throws {
        try await IntegrationSuite.withVendorAndAJournal { server, directory in
            let common = ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                          "--api-key", "test-key", "--origin", "www.shop.example"]
            try await server.configure(down: true)
            let first = try RelayProcess(common + ["--deadline", "0"])
            first.feed((1...10).map { Self.line(round: 1, number: $0) })
            #expect(first.wait() == 0, "\(first.stderr)")
            try await server.configure(down: false)
            // What a process killed while delivering the first batch leaves.
            try Data("1 0 0\n".utf8).write(to: directory.appendingPathComponent("delivering"))
            let log = Fixtures.temporaryFile(extension: "log")
            defer { try? FileManager.default.removeItem(at: log) }
            let fault = try JournalFaultShim.call(1, named: "pread", on: "delivering", error: "EIO", repeat: 1, directory: directory, log: log)
            let relay = try RelayProcess(common + ["--deadline", "10"], environment: fault)
            relay.feed((1...5).map { Self.line(round: 2, number: $0) })
            let status = relay.wait()
            #expect(JournalFaultShim.CallLog(log)?.fired == 1)
            #expect(status == 1, "\(relay.stderr)")
            #expect(relay.stderr.contains("\(directory.path)/delivering: Input/output error"), "\(relay.stderr)")
            let received = Set(try await server.received().map(\.id))
            let acknowledged = Array(first.acknowledged.values.joined()) + Array(relay.acknowledged.values.joined())
            #expect(acknowledged.count == 15 && acknowledged.allSatisfy(received.contains), "\(relay.stderr)")
        }
    }

    /// The journal directory that cannot be opened to lock it (`EIO` or `EMFILE` on its `open`): the
    /// relay and `recokit journal` stop at once with the system's words and take nothing. The lock was
    /// passed over in silence (as where a file system cannot lock a directory), and the relay ran on
    /// with the lock file alone and exited 0 (found by the rounds above once they counted the
    /// directory's own calls: seed 4242, round 21).
    @Test(arguments: ["EIO", "ENOSPC"])
    func aJournalDirectoryThatCannotBeOpenedToLockIsNamed(_ error: String) async throws {
        try await IntegrationSuite.withVendorAndAJournal { server, directory in
            let common = ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", server.base.absoluteString,
                          "--api-key", "test-key", "--origin", "www.shop.example", "--deadline", "5"]
            let first = try RelayProcess(common)
            first.feed((1...5).map { Self.line(round: 1, number: $0) })
            #expect(first.wait() == 0, "\(first.stderr)")
            let log = Fixtures.temporaryFile(extension: "log")
            defer { try? FileManager.default.removeItem(at: log) }
            let fault = try JournalFaultShim.call(1, named: "open", on: directory.lastPathComponent, error: error, repeat: 1, directory: directory, log: log)
            let words = error == "EIO" ? "Input/output error" : "No space left on device"
            let relay = try RelayProcess(common, environment: fault)
            relay.feed((1...5).map { Self.line(round: 2, number: $0) })
            #expect(relay.wait() == 1, "\(relay.stderr)")
            #expect(JournalFaultShim.CallLog(log)?.fired == 1)
            #expect(relay.stderr.contains("cannot open \(directory.path): \(words)"), "\(relay.stderr)")
            #expect(relay.acknowledged.isEmpty)
            let look = try RelayProcess(["journal", directory.path], environment: fault)
            #expect(look.wait() == 1, "\(look.stdout)")
            #expect((look.stdout + look.stderr).contains("cannot open \(directory.path): \(words)"), "\(look.stdout) \(look.stderr)")
        }
    }

    /// The journal's files whose bytes hold the product `product` (a record of its line), by name.
    static func files(holding product: String, in directory: URL) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        return names.filter { name in
            (try? [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))).flatMap { place(of: product, in: $0) } != nil
        }
    }

    /// Where the product id `product` starts in `bytes` (not followed by another digit: `F3-41`, not `F3-410`).
    static func place(of product: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(product.utf8)
        var index = 0
        while index + needle.count < bytes.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle),
               !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + needle.count]) { return index }
            index += 1
        }
        return nil
    }
}
