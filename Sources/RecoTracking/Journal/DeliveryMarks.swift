/// `delivering` in a journal's directory: the batches out for delivery, each by where it starts and how
/// many earlier claims of it ended unsettled, one per line (`segment offset attempts`). Written over in
/// place at every claim and settlement (blank lines after the marks cover what the file held before);
/// what the next process finds in it are the deliveries a stop cut short. A missing file, or one larger
/// than this code writes, counts as none; blank lines and lines it cannot parse are passed over. A file
/// the disk fails to read is the caller's to report (see `JournalStore`).
enum DeliveryMarks {
    static let fileName = "delivering"

    /// The marks the file holds.
    /// - Throws: the disk's error when the file cannot be sized or read.
    static func read(_ storage: any JournalStorage) throws(JournalStorageError) -> [JournalPosition: Int] {
        guard let size = try storage.size(fileName), size > 0, size <= 1 << 20 else { return [:] }
        let bytes = try storage.read(fileName, offset: 0, count: size)
        var marks: [JournalPosition: Int] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let segment = UInt64(fields[0]), let offset = Int(fields[1]), let attempts = Int(fields[2]),
                  offset >= 0, (0...1_000_000).contains(attempts) else { continue }
            marks[JournalPosition(segment: segment, offset: offset)] = attempts
        }
        return marks
    }

    static func write(_ marks: [JournalPosition: Int], to storage: any JournalStorage) throws(JournalStorageError) {
        let text = marks.sorted { $0.key < $1.key }.map { "\($0.key.segment) \($0.key.offset) \($0.value)\n" }.joined()
        try storage.overwrite(fileName, with: Array(text.utf8), padding: UInt8(ascii: "\n"))
    }
}
