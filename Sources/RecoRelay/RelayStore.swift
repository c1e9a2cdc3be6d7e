import Foundation
import RecoTracking

extension Relay {
    /// Where a relay program keeps what it accepted: its command-line options, and how to open it.
    ///
    /// `recokit relay` keeps a journal (``journal``); `recokit-postgres relay` a PostgreSQL store. The
    /// rest of the program (the line protocol, acknowledgements, signals, exit status) is the same.
    public struct Store: Sendable {
        /// What the store is called in messages (`journal`).
        public var noun: String
        /// Its options in the usage line (`--journal DIR`), first the required ones.
        public var synopsis: String
        /// Its options' descriptions in the usage text, each line indented as the others are.
        public var optionsHelp: String
        /// The value options it takes, without `--`.
        public var options: Set<String>
        /// The flags it takes, without `--`.
        public var flags: Set<String>
        /// Checks the options given before anything is said or opened: throws ``usageError(_:)``'s error
        /// for one that is missing or wrong.
        public var check: @Sendable (_ options: Options) throws -> Void
        /// Opens the store, durable on its caller's commits (a journal's ``RecoTracking/Durability/onCommit``),
        /// from the options given; what it throws ends the run.
        public var open: @Sendable (_ options: Options) async throws -> Opened

        /// A store kind.
        public init(noun: String, synopsis: String, optionsHelp: String, options: Set<String>, flags: Set<String>,
                    check: @escaping @Sendable (_ options: Options) throws -> Void,
                    open: @escaping @Sendable (_ options: Options) async throws -> Opened) {
            self.noun = noun
            self.synopsis = synopsis
            self.optionsHelp = optionsHelp
            self.options = options
            self.flags = flags
            self.check = check
            self.open = open
        }
    }

    /// The options of one run, as given.
    public struct Options: Sendable {
        let values: [String: String]
        let flags: Set<String>

        /// The value of `--name`, if given.
        public func value(_ name: String) -> String? { values[name] }
        /// Whether `--name` was given.
        public func flag(_ name: String) -> Bool { flags.contains(name) }
    }

    /// A store opened for a run.
    public struct Opened: Sendable {
        /// The store.
        public var store: any TrackingStore
        /// What opening it found, one line each, said on standard error before anything else.
        public var report: [String]
        /// Whether what it found may have cost accepted events (damage beyond a torn tail, a disk error
        /// it got past): the run then exits 1, whatever else goes well.
        public var damaged: Bool

        /// An opened store.
        public init(store: any TrackingStore, report: [String] = [], damaged: Bool = false) {
            self.store = store
            self.report = report
            self.damaged = damaged
        }
    }

    /// A command-line error: said with the usage hint, exit status 2.
    public static func usageError(_ text: String) -> any Error { UsageError(text) }

    /// `recokit relay`'s store: a journal in a directory of its own.
    public static let journal = Store(
        noun: "journal",
        synopsis: "--journal DIR",
        optionsHelp: """
              --journal DIR        the journal directory (created if missing; one relay at a time)
              --segment-bytes N    start a new journal segment once one holds N bytes (default 8388608,
                                   at least 4096): smaller segments give delivered events' disk back sooner
              --max-journal-bytes N
                                   the most the journal may hold, delivered or not yet (default 536870912,
                                   at least 16777216); past it the relay waits for delivery to make room
            """,
        options: ["journal", "segment-bytes", "max-journal-bytes"],
        flags: [],
        check: { options in
            guard options.value("journal") != nil else { throw UsageError("--journal is required") }
            _ = try segmentBytes(options.value("segment-bytes"))
            _ = try maxJournalBytes(options.value("max-journal-bytes"))
        },
        open: { options in
            let journal = options.value("journal") ?? ""
            let segmentBytes = try segmentBytes(options.value("segment-bytes"))
            let maxJournalBytes = try maxJournalBytes(options.value("max-journal-bytes"))
            if let problem = FileProblem.unwritableFolder(journal) { throw CommandFailure("--journal \(journal): \(problem)") }
            let store = try JournalStore(directory: URL(fileURLWithPath: journal), durability: .onCommit, maxBytes: maxJournalBytes,
                                         segmentBytes: segmentBytes)
            let recovery = store.recoveryReport
            var report: [String] = []
            if !recovery.damage.isEmpty || recovery.checkpointNote != nil || recovery.interruptedDeliveries > 0 {
                report.append("journal recovery: \(recovery.pendingEvents) pending events in \(recovery.segments) segments")
                if let note = recovery.checkpointNote { report.append("journal recovery: \(note)") }
                if recovery.interruptedDeliveries > 0 {
                    report.append("journal recovery: the last run stopped while delivering \(recovery.interruptedDeliveries) "
                                  + "\(recovery.interruptedDeliveries == 1 ? "batch" : "batches"), sent again now "
                                  + "(the most attempts of one: \(recovery.mostInterruptions); a batch is dead-lettered after "
                                  + "\(TrackerConfiguration().interruptedDeliveryLimit))")
                }
                report += recovery.damage.map { "journal recovery: \($0)" }
            }
            // Damage found at start that may have cost acknowledged lines (anything but a torn tail) fails the
            // run, and so does a disk error recovery got past (a checkpoint it could not read).
            let damaged = recovery.damage.contains { !$0.isInterruptedWrite } || recovery.diskError != nil
            return Opened(store: store, report: report, damaged: damaged)
        })

    /// `--segment-bytes`: a segment's size, 4096 bytes to 1 GiB (default 8 MiB).
    static func segmentBytes(_ text: String?) throws(UsageError) -> Int {
        guard let text else { return 8 << 20 }
        guard let bytes = Int(text), (4096...(1 << 30)).contains(bytes) else {
            throw UsageError("--segment-bytes is a number of bytes from 4096 to 1073741824, not \"\(text)\"")
        }
        return bytes
    }

    /// `--max-journal-bytes`: the most the journal may hold, 16 MiB (four of the largest lines) to 1 TiB
    /// (default 512 MiB).
    static func maxJournalBytes(_ text: String?) throws(UsageError) -> Int {
        guard let text else { return 512 << 20 }
        guard let bytes = Int(text), ((16 << 20)...(1 << 40)).contains(bytes) else {
            throw UsageError("--max-journal-bytes is a number of bytes from 16777216 to 1099511627776, not \"\(text)\"")
        }
        return bytes
    }
}
