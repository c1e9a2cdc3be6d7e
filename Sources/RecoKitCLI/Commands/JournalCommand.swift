import Foundation
import RecoKit
import RecoTracking
import RecoRelay

/// `recokit journal DIR [--repair] [--requeue]`: what a relay's journal holds; repairing it and re-queueing
/// dead letters only when asked.
enum JournalCommand: Command {
    static let name = "journal"
    static let summary = "Show a tracking journal's pending and dead-lettered events; re-queue dead letters"
    static let usage = """
        Usage: recokit journal DIR [--repair] [--requeue]

        Prints the number of pending and dead-lettered events in the journal DIR of `recokit relay`
        (or of a tracker: a page's impressions, journaled as one record, count one event each), each
        dead letter with its id, event and reason, and any damage found (torn or corrupt records:
        file, byte range, reason and the events lost; a segment file missing between two others).
        It only reads: nothing in DIR is created, changed or deleted.
        With --repair, damaged stretches are moved to DIR/quarantine.log and each damaged segment is
        written anew without them (every record after them is still delivered), and a dead-letter
        write cut short by a crash is cut off, as a relay does when it starts.
        With --requeue, moves every dead letter back to pending (same ids) so the next relay sends it
        again; bytes of the dead-letter file that hold no readable letter are moved to quarantine.log.
        Fails while a relay is using DIR, and when DIR is not a journal.

        Exit status: 0, also when the only damage is a torn tail (a write cut short by a crash or a
        power loss: never durable, so it held no line a relay acknowledged); 1 when DIR is missing, not
        a journal, or in use, or when damage that may have cost events was found (listed), also by the
        run that repairs it or moves it to quarantine.log, or when the disk failed a read (the note says
        which, in the system's words).
        """

    static func run(_ words: [String]) async throws -> Int32 {
        let arguments = try Arguments(words, options: [], flags: ["requeue", "repair"])
        guard arguments.positionals.count == 1 else { throw UsageError("give exactly one journal directory") }
        let directory = URL(fileURLWithPath: arguments.positionals[0])
        guard FileManager.default.fileExists(atPath: directory.path) else {
            Console.error("error: \(directory.path): no such folder, so no journal there")
            return 1
        }
        // Damage found that may have cost events fails the run that finds it, repaired or moved away, and
        // so does a read the disk failed, in any of the opens below.
        var found = false
        var diskError: String?
        /// Keeps a read the disk failed while `report`'s open recovered, and says its note.
        func keepDiskError(of report: JournalRecoveryReport) {
            guard let error = report.diskError else { return }
            diskError = error
            if let note = report.checkpointNote { Console.out("note: \(note)") }
        }
        if arguments.flag("repair") {
            let repaired = try JournalDirectory.repair(directory) { _ in }
            found = repaired.mayHaveLostEvents
            keepDiskError(of: repaired.recovery)
            for damage in repaired.recovery.damage {
                let done = damage.bytesSkipped == 0 ? "noted in quarantine.log; an empty segment stands in its place" : "its bytes are in quarantine.log"
                Console.out("repaired: \(damage); \(done)")
            }
        }
        if arguments.flag("requeue") {
            // Bytes of the dead-letter file that hold no readable letter go to quarantine.log as it is emptied.
            let before = try JournalDirectory.inspect(directory) { _ in }
            found = found || before.mayHaveLostEvents
            let unreadable = before.deadLetterDamage
            var recovery = JournalRecoveryReport()
            let count = try JournalDirectory.requeue(directory, recovery: &recovery)
            keepDiskError(of: before.recovery)
            keepDiskError(of: recovery)
            Console.out("requeued \(count) dead letters")
            for damage in unreadable { Console.out("quarantined: \(damage); its bytes are in quarantine.log") }
        }
        // The letters are counted, then listed in a second reading: the file may hold millions of them, more
        // than fit in memory at once.
        let contents = try JournalDirectory.inspect(directory) { _ in }
        Console.out("pending \(contents.pending)")
        Console.out("dead-lettered \(contents.deadLetterCount)")
        if contents.deadLetterCount > 0 {
            _ = try JournalDirectory.inspect(directory) { letter in
                let interaction = letter.event.interaction
                let kind = interaction.vendorEvent.map { "\($0.vendor) \($0.name)" } ?? interaction.kind.rawValue
                let what = [kind, interaction.instanceId, interaction.productId ?? interaction.interactionId]
                    .filter { !$0.isEmpty }.joined(separator: " ")
                Console.out("  \(letter.event.id) \(what): \(letter.reason)")
            }
        }
        for damage in contents.recovery.damage { Console.out("damage: \(damage)") }
        for damage in contents.deadLetterDamage { Console.out("damage: \(damage)") }
        if let note = contents.recovery.checkpointNote { Console.out("note: \(note)") }
        return found || contents.mayHaveLostEvents || (diskError ?? contents.recovery.diskError) != nil ? 1 : 0
    }
}
