import RecoTracking

/// A valid journal described by fuzzer bytes, then damaged as the same bytes say: the files to write,
/// and what the journal must report about them.
///
/// The writer follows the record format as `RecordFrame` documents it (segment header, 12-byte frames
/// whose CRC-32 covers segment number, offset, length and payload), written here independently so that
/// a change of format that breaks old journals fails here too. Bytes read past the input's end are 0.
///
/// Input: first segment number, segment count, then per segment a record count and per record a
/// payload length and a fill byte (a fill of 7 modulo 8 makes the record a page of 1 + length % 24
/// impressions, `PageRecordCodec`'s version 3, which the journal counts as that many events); a checkpoint byte (none, past the last segment, or a record
/// boundary of one segment); then up to 16 damages of 5 bytes each (kind, file, position ×2, value):
/// kinds 0–4 change one byte in place (xor), 5 truncates the file (or, one time in 16, deletes a segment
/// file that has a segment file before and after it, and one in 16 zeros it from there to its end, as
/// blocks a power loss left unwritten), 6 deletes a stretch, 7 inserts a copy of a stretch.
struct DamagedJournal: CustomStringConvertible {
    struct Record {
        var segment: UInt64
        var range: Range<Int>
        /// Events it holds: a page record's impressions, or 1.
        var events: Int
    }

    private(set) var files: [(name: String, bytes: [UInt8])] = []
    private(set) var records: [Record] = []
    /// Where the checkpoint file says delivery resumes, if one is written.
    private(set) var checkpoint: (segment: UInt64, offset: Int)?
    private(set) var damaged = false
    private(set) var damagedInPlaceOnly = true
    /// Segment files deleted whole (no other file's bytes move, so the damage is still "in place").
    private(set) var deleted: Set<String> = []
    private var oldest: UInt64 = 1
    /// The damage done, as values: described only when a promise fails (the description is most of a
    /// run's text otherwise).
    private var damages: [Damage] = []

    private struct Damage: CustomStringConvertible {
        enum Kind { case xor(UInt8), cut, zeroed, lost(Int), copy(count: Int, from: Int), deleted }
        var file: String
        var at: Int
        var kind: Kind

        var description: String {
            switch kind {
            case .xor(let value): "\(file)[\(at)] ^= \(value)"
            case .cut: "\(file) cut at \(at)"
            case .zeroed: "\(file) zeroed from \(at) to its end"
            case .lost(let count): "\(file) lost \(count) bytes at \(at)"
            case .copy(let count, let from): "\(file) got a copy of \(count) bytes from \(from) at \(at)"
            case .deleted: "\(file) deleted"
            }
        }
    }

    init(_ input: [UInt8]) {
        var reader = Reader(bytes: input)
        oldest = 1 + UInt64(reader.next() % 8)
        let segmentCount = 1 + Int(reader.next() % 4)
        for index in 0..<segmentCount {
            let number = oldest + UInt64(index)
            var bytes = Self.segmentHeader
            for _ in 0..<Int(reader.next() % 24) {
                let length = 1 + Int(reader.next() % 48)
                let fill = reader.next()
                // One record in eight is a page of impressions (several events); the others hold bytes whose
                // first is an event record's codec version (never 0, which marks padding, nor a page's 3).
                let events = fill % 8 == 7 ? 1 + length % 24 : 1
                let version = 1 + fill % 200 == 3 ? 4 : 1 + fill % 200  // 3 is a page record's version
                let payload = fill % 8 == 7
                    ? Self.pageRecord(impressions: events, fill: fill)
                    : (0..<length).map { $0 == 0 ? version : fill &+ UInt8(truncatingIfNeeded: $0) }
                records.append(Record(segment: number, range: bytes.count..<(bytes.count + 12 + payload.count), events: events))
                Self.appendFrame(payload, segment: number, offset: bytes.count, to: &bytes)
            }
            files.append((Self.segmentName(number), bytes))
        }
        let choice = reader.next()
        switch choice % 4 {
        case 0: break
        case 1: checkpoint = (oldest + UInt64(segmentCount), 0)
        default:
            let segment = oldest + UInt64(Int(choice >> 2) % segmentCount)
            let boundaries = records.filter { $0.segment == segment }.map(\.range.lowerBound)
                + [files[Int(segment - oldest)].bytes.count]
            checkpoint = (segment, boundaries[Int(reader.next()) % boundaries.count])
        }
        if let checkpoint {
            var bytes = [UInt8]()
            Self.put(checkpoint.segment, 8, &bytes)
            Self.put(UInt64(checkpoint.offset), 8, &bytes)
            Self.put(UInt64(CRC32.checksum(bytes)), 4, &bytes)
            files.append(("checkpoint", bytes))
        }
        for _ in 0..<16 where !reader.atEnd {
            damage(kind: reader.next() % 8, file: Int(reader.next()) % files.count,
                   position: Int(reader.next()) | Int(reader.next()) << 8, value: reader.next())
        }
    }

    /// Pending events the journal must report while undamaged.
    var pendingAfterCheckpoint: Int { Self.events(in: records(from: checkpoint ?? (oldest, 0))) }

    /// How many events after the place delivery resumes (the checkpoint, or the oldest segment's start
    /// when the report says the checkpoint was unusable) were not read, and how many of those lie in a
    /// record inside a reported damage range of its file.
    func eventsNotRead(by report: JournalRecoveryReport) -> (lost: Int, covered: Int) {
        let start = report.checkpointNote == nil ? checkpoint ?? (oldest, 0) : (oldest, 0)
        let expected = records(from: start)
        let covered = expected.filter { record in
            let name = Self.segmentName(record.segment)
            return report.damage.contains { $0.file == name && ($0.byteRange.overlaps(record.range) || ($0.bytesSkipped == 0 && deleted.contains(name))) }
        }
        return (Self.events(in: expected) - report.pendingEvents, Self.events(in: covered))
    }

    private static func events(in records: [Record]) -> Int { records.reduce(0) { $0 + $1.events } }

    var description: String {
        let sizes = files.map { "\($0.name) \($0.bytes.count) bytes" }.joined(separator: ", ")
        let place = checkpoint.map { "segment \($0.segment) offset \($0.offset)" } ?? "none"
        return "journal of \(records.count) records (\(sizes); checkpoint \(place)), damage: \(damages.map(\.description).joined(separator: "; "))"
    }

    private func records(from start: (segment: UInt64, offset: Int)) -> [Record] {
        records.filter { $0.segment > start.segment || ($0.segment == start.segment && $0.range.lowerBound >= start.offset) }
    }

    private mutating func damage(kind: UInt8, file: Int, position: Int, value: UInt8) {
        let segments = files.map(\.name).filter { $0.hasPrefix("segment-") }.sorted()
        if kind == 5, value % 16 == 15, let index = segments.firstIndex(of: files[file].name), index > 0, index < segments.count - 1 {
            damages.append(Damage(file: files[file].name, at: 0, kind: .deleted))
            deleted.insert(files[file].name)
            files.remove(at: file)
            damaged = true
            return
        }
        var bytes = files[file].bytes
        guard !bytes.isEmpty else { return }
        let at = position % bytes.count
        let count = 1 + Int(value % 32)
        switch kind {
        case 0...4:
            bytes[at] ^= value == 0 ? 1 : value
            damages.append(Damage(file: files[file].name, at: at, kind: .xor(value == 0 ? 1 : value)))
        case 5 where value % 16 == 14:
            for index in at..<bytes.count { bytes[index] = 0 }
            damages.append(Damage(file: files[file].name, at: at, kind: .zeroed))
        case 5:
            bytes.removeSubrange(at...)
            damages.append(Damage(file: files[file].name, at: at, kind: .cut))
            damagedInPlaceOnly = false
        case 6:
            bytes.removeSubrange(at..<min(bytes.count, at + count))
            damages.append(Damage(file: files[file].name, at: at, kind: .lost(count)))
            damagedInPlaceOnly = false
        default:
            let from = Int(value) * 7 % bytes.count
            bytes.insert(contentsOf: bytes[from..<min(bytes.count, from + count)], at: at)
            damages.append(Damage(file: files[file].name, at: at, kind: .copy(count: count, from: from)))
            damagedInPlaceOnly = false
        }
        files[file].bytes = bytes
        damaged = true
    }

    static func segmentName(_ number: UInt64) -> String {
        let digits = String(number)
        return "segment-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits + ".log"
    }

    /// A page's impressions as one record, laid out as `PageRecordCodec` documents version 3: version,
    /// run, first sequence, time (8 bytes each, little endian), kind 0 (impression), flags, the count
    /// (varint), the shared strings (userId, sessionId, lang, currency, pageUrl, region, os, device,
    /// params), then per impression instanceId, interactionId, productId and position + 1. A string is a
    /// varint of (length + 1) and its UTF-8, 0 when absent; all are short here, so each varint is one byte.
    static func pageRecord(impressions: Int, fill: UInt8) -> [UInt8] {
        var bytes: [UInt8] = [3]
        put(UInt64(fill) &* 0x9E37_79B9_7F4A_7C15, 8, &bytes)
        put(UInt64(fill) + 1, 8, &bytes)
        put(1_790_000_000_000 + UInt64(fill), 8, &bytes)
        bytes += [0, fill & 1, UInt8(impressions)]
        func string(_ text: String?) {
            guard let text else { return bytes.append(0) }
            bytes.append(UInt8(text.utf8.count + 1))
            bytes += Array(text.utf8)
        }
        for shared in ["u\(fill)", "s\(fill)", "TR", "TRY", "https://shop.example/p/\(fill)", nil, nil, nil, nil] as [String?] { string(shared) }
        for index in 0..<impressions {
            string("scn_\(fill % 3)")
            string(fill % 2 == 0 ? "act_1" : nil)
            string("p\(index)")
            bytes.append(UInt8(index % 2 == 0 ? index + 2 : 0))
        }
        return bytes
    }

    /// `RKJOURNL`, format version 2, and the CRC-32 of those 12 bytes.
    static let segmentHeader: [UInt8] = {
        var bytes = Array("RKJOURNL".utf8)
        put(2, 4, &bytes)
        put(UInt64(CRC32.checksum(bytes)), 4, &bytes)
        return bytes
    }()

    static func appendFrame(_ payload: [UInt8], segment: UInt64, offset: Int, to output: inout [UInt8]) {
        var place = [UInt8]()
        put(segment, 8, &place)
        put(UInt64(offset), 8, &place)
        put(UInt64(payload.count), 4, &place)
        let placeCheck = CRC32.checksum(place)
        output += [0x52, 0x4B, 2, UInt8(truncatingIfNeeded: placeCheck)]
        put(UInt64(payload.count), 4, &output)
        put(UInt64(CRC32.checksum(payload, continuing: placeCheck)), 4, &output)
        output += payload
    }

    /// `value`'s low `count` bytes, little endian.
    static func put(_ value: UInt64, _ count: Int, _ output: inout [UInt8]) {
        for index in 0..<count { output.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var atEnd: Bool { index >= bytes.count }
        mutating func next() -> UInt8 {
            defer { index += 1 }
            return index < bytes.count ? bytes[index] : 0
        }
    }
}
