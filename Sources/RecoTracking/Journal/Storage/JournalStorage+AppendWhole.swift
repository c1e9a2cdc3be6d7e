extension JournalStorage {
    /// Appends `bytes` at the end of a log the journal only adds to (dead letters, quarantined damage), whole
    /// or not at all: a failed or short write is cut back to the size the file had, and the error thrown.
    /// `durable`: synced before returning.
    ///
    /// Such a log is the journal's only in what it adds: an operator may empty or delete it once its entries
    /// are dealt with, a cleaner of old files remove it. When another process has changed the file
    /// (``JournalStorageError/Kind/changed``: the bytes would go to a deleted file, or land where no reading
    /// expects them), they are written once more to the file now at its name. Returns whether that
    /// happened: a reading of the log made before no longer holds.
    @discardableResult
    func appendWhole(_ name: String, _ bytes: [UInt8], durable: Bool) throws(JournalStorageError) -> Bool {
        do throws(JournalStorageError) {
            try appendOnce(name, bytes, durable: durable)
            return false
        } catch where error.kind == .changed {
            reopen(name)
            try appendOnce(name, bytes, durable: durable)
            return true
        }
    }

    private func appendOnce(_ name: String, _ bytes: [UInt8], durable: Bool) throws(JournalStorageError) {
        let before = try size(name) ?? 0
        let wrote: Int
        do { wrote = try append(name, bytes[...]) } catch {
            // A file found changed was not written to, and may no longer be the one at the name.
            if error.kind != .changed { try? truncate(name, to: before) }
            throw error
        }
        guard wrote == bytes.count else {
            try? truncate(name, to: before)
            throw JournalStorageError(kind: .noSpace, description: "cannot write \(location)/\(name): short write")
        }
        if durable { try sync(name) }
    }
}
