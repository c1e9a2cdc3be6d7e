#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Dead letters on disk (`DIR/dead-letters.log`, framed like the journal): each record is the reason's
/// length (4 bytes), the reason, the time in epoch milliseconds (8 bytes) and the journaled event.
final class DeadLetterStore: @unchecked Sendable {
    private let lock = NSLock()
    private let path: String?
    private let durable: Bool
    private var memory: [UInt8] = []
    private var descriptor: Int32 = -1
    private(set) var damage: [String] = []

    init(directory: URL?, durable: Bool) throws(TrackingError) {
        self.durable = durable
        path = directory?.appendingPathComponent("dead-letters.log").path
        if let path {
            descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw .journal("cannot open \(path)") }
        }
    }

    /// Adds dead letters; on disk, written and `fsync`ed before returning.
    func add(_ letters: [(payload: ArraySlice<UInt8>, reason: String)], at date: Date) throws(TrackingError) {
        guard !letters.isEmpty else { return }
        var bytes = [UInt8]()
        let millis = UInt64(bitPattern: Int64(date.timeIntervalSince1970 * 1000))
        for letter in letters {
            var record = [UInt8]()
            let reason = Array(letter.reason.utf8)
            for shift in stride(from: 0, to: 32, by: 8) { record.append(UInt8(truncatingIfNeeded: UInt32(reason.count) >> UInt32(shift))) }
            record += reason
            for shift in stride(from: 0, to: 64, by: 8) { record.append(UInt8(truncatingIfNeeded: millis >> UInt64(shift))) }
            record += letter.payload
            RecordFrame.append(record, to: &bytes)
        }
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else { memory += bytes; return }
        let wrote = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress!, bytes.count) }
        guard wrote == bytes.count else { throw .journal("cannot write \(path ?? "dead letters")") }
        if durable { _ = fsync(descriptor) }
    }

    /// Every dead letter, oldest first, with their journaled payloads (for re-queueing).
    func list() throws(TrackingError) -> [(letter: DeadLetter, payload: [UInt8])] {
        lock.lock()
        defer { lock.unlock() }
        let bytes = try readAll()
        var letters: [(DeadLetter, [UInt8])] = []
        var offset = 0
        damage = []
        while offset < bytes.count {
            guard case .record(let record, let next) = RecordFrame.scan(bytes, at: offset) else {
                damage.append("dead-letters.log: \(bytes.count - offset) unreadable bytes at offset \(offset) skipped")
                break
            }
            offset = next
            let body = Array(record)
            guard body.count >= 12 else { continue }
            let length = Int(RecordFrame.readUInt32(body, 0))
            guard 4 + length + 8 <= body.count else { continue }
            let reason = String(decoding: body[4..<(4 + length)], as: UTF8.self)
            var millis: UInt64 = 0
            for index in 0..<8 { millis |= UInt64(body[4 + length + index]) << UInt64(index * 8) }
            let payload = Array(body[(12 + length)...])
            guard let event = try? EventCodec.decode(payload[...]) else { continue }
            let at = Date(timeIntervalSince1970: Double(Int64(bitPattern: millis)) / 1000)
            letters.append((DeadLetter(event: event, reason: reason, at: at), payload))
        }
        return letters
    }

    /// Forgets every dead letter (after they were re-queued).
    func removeAll() throws(TrackingError) {
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else { memory = []; return }
        guard ftruncate(descriptor, 0) == 0 else { throw .journal("cannot truncate \(path ?? "dead letters")") }
        _ = fsync(descriptor)
    }

    private func readAll() throws(TrackingError) -> [UInt8] {
        guard descriptor >= 0 else { return memory }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .journal("cannot stat \(path ?? "dead letters")") }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, size, 0) }
        if got < bytes.count { bytes.removeLast(bytes.count - max(0, got)) }
        return bytes
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0 { closeDescriptor(descriptor); descriptor = -1 }
    }
}
