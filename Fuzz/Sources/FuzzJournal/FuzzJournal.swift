import Foundation
import FuzzSupport
import RecoTracking

/// A fresh directory per run, holding the journal under test: in /dev/shm where there is one (the
/// journal syncs what it opens, which on a disk costs milliseconds a run).
private let scratch: URL = {
    let memory = URL(fileURLWithPath: "/dev/shm")
    let base = FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
    return base.appendingPathComponent("recokit-fuzz-journal-\(getpid())")
}()

/// Journal recovery over hostile bytes, through the public API only (`JournalDirectory`), in two modes
/// chosen by the input's first byte:
///
/// - **even** (the `.log` seeds in `Fuzz/Corpus/FuzzJournal`): the input is the first
///   segment's bytes as they are. Torn, corrupt or hostile bytes must be cut off or reported, never crash.
/// - **odd**: the input describes a *valid* journal (segments, records, a checkpoint; see
///   `DamagedJournal`) and then damage done to it. Random bytes almost never pass a record's CRC, so the
///   first mode mostly exercises the first frame check; this one reaches resynchronisation, padding,
///   checkpoint validation and repair (damaged segments written anew), and checks what the journal promises:
///   1. nothing is lost silently: when the damage only changes bytes in place (or deletes a segment file
///      whole), every event the journal no longer counts is in a record inside a reported damage range,
///      or in a deleted file the report names (and an undamaged journal reports every event, a page
///      record's impressions included, no damage, no checkpoint note);
///   2. `repair` leaves a journal that a second inspection finds clean (no damage, and a checkpoint it
///      can use), with the same pending count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(pointer, size)
    let fileManager = FileManager.default
    try? fileManager.removeItem(at: scratch)
    defer { try? fileManager.removeItem(at: scratch) }
    do {
        try fileManager.createDirectory(at: scratch, withIntermediateDirectories: true)
    } catch {
        fuzzCheck(false, "cannot prepare the journal directory \(scratch.path): \(error)")
    }
    guard let first = input.data.first, first & 1 == 1 else {
        write(Array(input.data), to: "segment-000000000001.log")
        if let contents = try? JournalDirectory.inspect(scratch) {
            _ = (contents.pending, contents.deadLetters.count, contents.journalBytes, "\(contents.recovery)")
        }
        return 0
    }
    let journal = DamagedJournal(Array(input.data.dropFirst()))
    for (name, bytes) in journal.files { write(bytes, to: name) }
    checkPromises(of: journal)
    return 0
}

private func write(_ bytes: [UInt8], to name: String) {
    do {
        try Data(bytes).write(to: scratch.appendingPathComponent(name))
    } catch {
        fuzzCheck(false, "cannot write \(name) in \(scratch.path): \(error)")
    }
}

private func checkPromises(of journal: DamagedJournal) {
    let seen: JournalDirectory.Contents
    do {
        seen = try JournalDirectory.inspect(scratch)
    } catch {
        // Reading files that exist and are readable is not an I/O failure, whatever bytes they hold.
        return fuzzCheck(false, "inspect threw over readable files: \(error)")
    }
    let report = seen.recovery
    fuzzCheck(seen.pending == report.pendingEvents, "pending \(seen.pending) vs the report's \(report.pendingEvents)")
    for damage in report.damage {
        guard let size = journal.files.first(where: { $0.name == damage.file })?.bytes.count else {
            // A segment file missing between two that exist: the only damage that names no file there.
            fuzzCheck(journal.deleted.contains(damage.file) && damage.offset == 0 && damage.bytesSkipped == 0,
                      "damage \(damage) names a file the journal never had")
            continue
        }
        fuzzCheck(damage.offset >= 0 && damage.bytesSkipped > 0 && damage.byteRange.upperBound <= size,
                  "damage \(damage) lies outside \(damage.file) (\(size) bytes)")
    }
    if !journal.damaged {
        fuzzCheck(report.damage.isEmpty && report.checkpointNote == nil && seen.pending == journal.pendingAfterCheckpoint,
                  "an undamaged journal of \(journal.pendingAfterCheckpoint) pending events read as \(report)")
    }
    if journal.damagedInPlaceOnly {
        // Every event that is no longer read must sit in a record in a reported range of its own file.
        let (lost, covered) = journal.eventsNotRead(by: report)
        fuzzCheck(lost <= covered,  // fewer lost (even below 0) only when damage forges a valid frame, which the CRC makes 1 in 2^32
                  "\(lost) events not read, but only \(covered) lie in records in reported damage; \(journal); report: \(report)")
    }
    let repaired: JournalDirectory.Contents
    let again: JournalDirectory.Contents
    do {
        repaired = try JournalDirectory.repair(scratch)
        again = try JournalDirectory.inspect(scratch)
    } catch {
        return fuzzCheck(false, "repair or the inspection after it threw: \(error)")
    }
    fuzzCheck(again.recovery.checkpointNote == nil, "a checkpoint repair left unusable: \(again.recovery); repair said \(repaired.recovery); before: \(report); \(journal)")
    fuzzCheck(again.recovery.damage.isEmpty, "damage left after repair: \(again.recovery); repair said \(repaired.recovery); before: \(report); \(journal)")
    fuzzCheck(again.pending == repaired.pending, "repair counted \(repaired.pending) pending, the inspection after it \(again.pending); repair said \(repaired.recovery); after: \(again.recovery); before: \(report); \(journal)")
    fuzzCheck(repaired.pending == seen.pending, "inspection counted \(seen.pending) pending, repair \(repaired.pending)")
}
