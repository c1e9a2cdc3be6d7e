#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension Journal {
    /// Opens (or creates) the journal in `directory`, locks it against other processes, reads the
    /// checkpoint, and scans every segment: records after the checkpoint are pending; a torn or corrupt
    /// tail is cut off and reported.
    static func open(directory: URL?, durability: Durability, maxBytes: Int, segmentBytes: Int)
        throws(TrackingError) -> (Journal, JournalRecoveryReport) {
        let journal = Journal(directory: directory, durability: durability, maxBytes: maxBytes, segmentBytes: segmentBytes)
        var report = JournalRecoveryReport()
        if durability != .memory, let directory {
            try journal.lockDirectory(directory)
            try journal.recover(&report)
        } else {
            journal.order = [1]
            journal.sizes = [1: 0]
        }
        return (journal, report)
    }

    private func lockDirectory(_ directory: URL) throws(TrackingError) {
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw .journal("cannot create \(directory.path): \(error.localizedDescription)")
        }
        let path = directory.appendingPathComponent("lock").path
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .journal("cannot open \(path)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            closeDescriptor(fd)
            throw .journalInUse(directory.path)
        }
        lockDescriptor = fd
        let checkpointPath = directory.appendingPathComponent("checkpoint").path
        checkpointDescriptor = Glibc.open(checkpointPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard checkpointDescriptor >= 0 else { throw .journal("cannot open \(checkpointPath)") }
    }

    private func recover(_ report: inout JournalRecoveryReport) throws(TrackingError) {
        var saved = readCheckpoint()
        if saved == nil, lseek(checkpointDescriptor, 0, SEEK_END) > 0 {
            report.checkpointNote = "the delivery checkpoint was unreadable; delivery restarts at the oldest segment (duplicates possible)"
        }
        var segments = try store.list()
        if let point = saved {
            for segment in segments where segment < point.segment { store.remove(segment) }
            segments.removeAll { $0 < point.segment }
            if segments.first != point.segment { saved = nil }
        }
        report.segments = segments.count
        var count = 0
        for segment in segments {
            let bytes = try store.readAll(segment)
            let from = saved?.segment == segment ? saved!.offset : 0
            var offset = 0
            scanning: while offset < bytes.count {
                switch RecordFrame.scan(bytes, at: offset) {
                case .record(_, let next):
                    if offset >= from { count += 1 }
                    offset = next
                case .incomplete:
                    report.damage.append(.init(file: fileName(segment), offset: offset, bytesSkipped: bytes.count - offset,
                                               reason: "torn record (an interrupted write)"))
                    break scanning
                case .corrupt(let reason):
                    report.damage.append(.init(file: fileName(segment), offset: offset, bytesSkipped: bytes.count - offset,
                                               reason: "corrupt record: \(reason)"))
                    break scanning
                }
            }
            if offset < bytes.count { try store.truncate(segment, to: offset) }
            sizes[segment] = offset
            totalBytes += offset
            if saved?.segment == segment, saved!.offset > offset { saved!.offset = offset }
        }
        order = segments
        active = (segments.last ?? 0) + 1
        order.append(active)
        sizes[active] = 0
        let start = saved ?? JournalPosition(segment: segments.first ?? active, offset: 0)
        checkpoint = start
        readCursor = start
        durable = JournalPosition(segment: active, offset: 0)
        pending = count
        appended = count
        durableCount = count
        report.pendingEvents = count
        if count > 0 { readableSince = .now - .seconds(3600) }
    }

    private func fileName(_ segment: UInt64) -> String {
        (store as? FileSegmentStore).map { URL(fileURLWithPath: $0.path(segment)).lastPathComponent } ?? "segment \(segment)"
    }

    /// 8 bytes segment, 8 bytes offset, 4 bytes CRC-32 of those 16, little endian.
    private func readCheckpoint() -> JournalPosition? {
        var bytes = [UInt8](repeating: 0, count: 20)
        let got = bytes.withUnsafeMutableBytes { pread(checkpointDescriptor, $0.baseAddress!, 20, 0) }
        guard got == 20 else { return nil }
        guard CRC32.checksum(bytes[0..<16]) == RecordFrame.readUInt32(bytes, 16) else { return nil }
        var segment: UInt64 = 0
        var offset: UInt64 = 0
        for index in 0..<8 {
            segment |= UInt64(bytes[index]) << UInt64(index * 8)
            offset |= UInt64(bytes[8 + index]) << UInt64(index * 8)
        }
        return JournalPosition(segment: segment, offset: Int(offset))
    }

    /// Records the checkpoint (not `fsync`ed: losing it only means re-sending, never losing).
    func writeCheckpoint() {
        guard checkpointDescriptor >= 0 else { return }
        var bytes = [UInt8]()
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: checkpoint.segment >> UInt64(index * 8))) }
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: UInt64(checkpoint.offset) >> UInt64(index * 8))) }
        let crc = CRC32.checksum(bytes)
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: crc >> UInt32(index * 8))) }
        _ = bytes.withUnsafeBytes { pwrite(checkpointDescriptor, $0.baseAddress!, 20, 0) }
    }
}
