/// Where a journal keeps its bytes: a flat set of named append-only files (segments, the checkpoint,
/// dead letters, quarantined damage) and a lock.
///
/// The journal calls nothing else, so every fault a disk can give is a fault of one of these calls, and a
/// test can inject it (`FaultyStorage` in the tests: a crash at any call, `ENOSPC`/`EIO`, short writes,
/// a failed `sync`, torn tails, flipped bits). The shape is meant to fit a store on a shared database as
/// well as files: a file is a key, `append` adds bytes at its end, `sync` makes what was appended
/// durable, `replace` swaps a whole small value at once (the checkpoint), and `lock` is an advisory lock
/// on the whole store (an outbox table on PostgreSQL would map these to rows and an advisory lock).
///
/// Calls may come from several threads at once for different files, and reads of a file beside its
/// writes; a file's `append`, `sync` and `truncate` come from one thread at a time (the journal's flush
/// lock, the dead-letter store's lock, the quarantine's), which lets the file store tell its own writes
/// from another process's (``JournalStorageError/Kind/changed``).
protocol JournalStorage: AnyObject, Sendable {
    /// A description for messages: the directory's path, or what the store is.
    var location: String { get }
    /// Takes the store for this process: `exclusive` for a tracker, shared for a read-only inspection.
    /// Throws ``JournalStorageError/inUse`` when another process holds it.
    func lock(exclusive: Bool) throws(JournalStorageError)
    /// Whether the store exists at all (a directory that is there), without creating it.
    func exists() -> Bool
    /// The names of the files, in no order.
    func list() throws(JournalStorageError) -> [String]
    /// The size of a file in bytes; nil when it does not exist.
    func size(_ name: String) throws(JournalStorageError) -> Int?
    /// Up to `count` bytes from `offset` (fewer at the end of the file).
    func read(_ name: String, offset: Int, count: Int) throws(JournalStorageError) -> [UInt8]
    /// Appends at the end of the file, creating it if missing. Returns how many bytes
    /// were written: fewer than given is a short write, and the caller decides what to do with the rest.
    /// A throw may also have written a prefix: the caller rolls the file back to a size it knows.
    func append(_ name: String, _ bytes: ArraySlice<UInt8>) throws(JournalStorageError) -> Int
    /// Makes everything appended to the file so far durable, and its name (a new file's, or one a killed
    /// process left): fails if either cannot be made durable.
    func sync(_ name: String) throws(JournalStorageError)
    /// Cuts the file to `size` bytes and makes that durable.
    func truncate(_ name: String, to size: Int) throws(JournalStorageError)
    /// Replaces the whole content of a small file at once: a reader sees the old or the new bytes,
    /// never a mix (a temporary file renamed over it). `durable`: synced before returning.
    func replace(_ name: String, with bytes: [UInt8], durable: Bool) throws(JournalStorageError)
    /// Writes `bytes` over the start of a small file in one write, creating it if missing, followed by
    /// `padding` as far as the file's end, so that nothing it held before is left but `padding` (the
    /// caller's format passes over it). Not synced: it survives the process, not the machine. Cheaper
    /// than ``replace(_:with:durable:)`` (no new file, no rename), for a file rewritten at every batch.
    func overwrite(_ name: String, with bytes: [UInt8], padding: UInt8) throws(JournalStorageError)
    /// Deletes a file; no error when it is already gone.
    func remove(_ name: String) throws(JournalStorageError)
    /// Lets go of what is open of the file, so that the next call finds the file now at its name (after
    /// ``JournalStorageError/Kind/changed``: another process deleted, replaced or cut it).
    func reopen(_ name: String)
    /// Lets go of what is open of the file when the name no longer leads to it (another process deleted
    /// or replaced it), so that reading goes on from the file now at the name; whether it did.
    func refresh(_ name: String) -> Bool
    /// Releases the lock and every open handle.
    func close()
}

/// A storage call that failed: which call, on what, and why (`ENOSPC`, `EIO`…), with the system's words.
struct JournalStorageError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        /// Another process holds the store.
        case inUse
        /// The disk is full (`ENOSPC`, `EDQUOT`).
        case noSpace
        /// Anything else the system said (`EIO`, permissions…).
        case failed
        /// Another process deleted, replaced, truncated or wrote to the file while it was open: what was
        /// written to it may not survive.
        case changed
    }

    var kind: Kind
    var description: String
    /// For ``Kind/inUse``: the store's location.
    var location = ""

    static func inUse(_ location: String) -> JournalStorageError {
        JournalStorageError(kind: .inUse, description: "the journal \(location) is in use by another process", location: location)
    }

    var trackingError: TrackingError {
        kind == .inUse ? .journalInUse(location) : .journal(description)
    }
}

extension JournalStorage {
    /// A store without files on a disk replaces the value whole.
    func overwrite(_ name: String, with bytes: [UInt8], padding: UInt8) throws(JournalStorageError) {
        try replace(name, with: bytes, durable: false)
    }

    /// A store without handles of its own has nothing to let go of.
    func reopen(_ name: String) {}
    func refresh(_ name: String) -> Bool { false }
}
