import Foundation
import FuzzSupport
import RecoTracking

/// A fresh directory per run, holding the fuzzer's bytes as the journal's first segment: in /dev/shm
/// where there is one (the journal syncs what it opens, which on a disk costs milliseconds a run).
private let scratch: URL = {
    let memory = URL(fileURLWithPath: "/dev/shm")
    let base = FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
    return base.appendingPathComponent("recokit-fuzz-journal-\(getpid())")
}()

/// Journal recovery over arbitrary bytes, through the public API only (`JournalDirectory.inspect`):
/// torn, corrupt or hostile segment bytes must be cut off or reported, never crash the reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(pointer, size)
    let fileManager = FileManager.default
    try? fileManager.removeItem(at: scratch)
    do {
        try fileManager.createDirectory(at: scratch, withIntermediateDirectories: true)
        try input.data.write(to: scratch.appendingPathComponent("segment-000000000001.log"))
    } catch {
        fuzzCheck(false, "cannot prepare the journal directory \(scratch.path): \(error)")
    }
    if let contents = try? JournalDirectory.inspect(scratch) {
        _ = (contents.pending, contents.deadLetters.count, contents.journalBytes, "\(contents.recovery)")
    }
    try? fileManager.removeItem(at: scratch)
    return 0
}
