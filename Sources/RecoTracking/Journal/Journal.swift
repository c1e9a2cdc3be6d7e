#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The on-disk queue of accepted events: numbered segment files of checksummed records, a delivery
/// checkpoint, and group commit.
///
/// Writers append under a lock; in `strict` mode they then wait for an `fsync` that covers their record
/// (one `fsync` serves everyone waiting). Readers take batches only from the durable part, read from
/// disk (the backlog is never held in memory). Batches may be acknowledged in any order; the checkpoint
/// is the start of the oldest unacknowledged batch, and segments wholly before it are deleted.
final class Journal: @unchecked Sendable {
    let durability: Durability
    let directory: URL?
    let store: SegmentStore
    let maxBytes: Int
    let segmentBytes: Int
    let lock = NSLock()
    private let syncLock = NSLock()
    var lockDescriptor: Int32 = -1
    var checkpointDescriptor: Int32 = -1

    // Guarded by `lock`.
    var sizes: [UInt64: Int] = [:]
    var order: [UInt64] = []
    var active: UInt64 = 1
    var buffer: [UInt8] = []
    var bufferCount = 0
    var totalBytes = 0
    var durable = JournalPosition(segment: 1, offset: 0)
    var appended = 0
    var durableCount = 0
    var taken = 0
    var readCursor = JournalPosition(segment: 1, offset: 0)
    var checkpoint = JournalPosition(segment: 1, offset: 0)
    var inFlight: [JournalPosition: Int] = [:]
    var pending = 0
    var readableSince: ContinuousClock.Instant?
    var closed = false
    var intakeClosed = false
    var readDamage: [String] = []
    var nextSequence: UInt64 = 0
    var acceptedCount = 0

    /// The batched-mode buffer is written out when it reaches this size even between commits.
    private static let bufferLimit = 256 * 1024

    init(directory: URL?, durability: Durability, maxBytes: Int, segmentBytes: Int) {
        self.directory = directory
        self.durability = durability
        self.maxBytes = maxBytes
        self.segmentBytes = segmentBytes
        if durability == .memory || directory == nil {
            store = MemorySegmentStore(capacity: segmentBytes)
        } else {
            store = FileSegmentStore(directory: directory!)
        }
    }

    private var isMemory: Bool { durability == .memory }
    private var isBatched: Bool { if case .batched = durability { true } else { false } }

    // MARK: Writing

    /// Appends one record; returns the position just past it (for ``makeDurable(upTo:)``) and, when
    /// `assigningSequence`, the sequence number written into the event's id (bytes 9..<17 of an
    /// ``EventCodec`` payload), so numbering and appending share one lock.
    func append(_ record: consuming [UInt8], assigningSequence: Bool) throws(TrackingError) -> (end: JournalPosition, sequence: UInt64) {
        var payload = record
        lock.lock()
        defer { lock.unlock() }
        guard !intakeClosed else { throw .shutDown }
        let size = payload.count + RecordFrame.headerSize
        guard totalBytes + size <= maxBytes else { throw .queueFull }
        var number: UInt64 = 0
        if assigningSequence {
            nextSequence += 1
            number = nextSequence
            for index in 0..<8 { payload[9 + index] = UInt8(truncatingIfNeeded: number >> UInt64(index * 8)) }
            acceptedCount += 1
        }
        RecordFrame.append(payload, to: &buffer)
        bufferCount += 1
        totalBytes += size
        pending += 1
        if durability == .strict || buffer.count >= Self.bufferLimit { try writeBuffer() }
        let end = JournalPosition(segment: active, offset: (sizes[active] ?? 0) + buffer.count)
        if (sizes[active] ?? 0) >= segmentBytes { try rotate() }
        return (end, number)
    }

    /// Memory mode: what is buffered becomes readable at once (there is no disk to wait for).
    private func publishMemory() throws(TrackingError) {
        try writeBuffer()
        durable = JournalPosition(segment: active, offset: sizes[active] ?? 0)
        durableCount = appended
        markReadable()
    }

    func writeBuffer() throws(TrackingError) {
        guard !buffer.isEmpty else { return }
        try store.append(active, buffer)
        sizes[active, default: 0] += buffer.count
        appended += bufferCount
        buffer.removeAll(keepingCapacity: true)
        bufferCount = 0
    }

    private func rotate() throws(TrackingError) {
        if isMemory { try publishMemory() } else { try writeBuffer() }
        active += 1
        sizes[active] = 0
        order.append(active)
    }

    private func markReadable() {
        if readableSince == nil, durableCount > taken { readableSince = .now }
    }

    /// Writes the buffer and `fsync`s everything written so far (group commit). No-op in memory.
    func commit() throws(TrackingError) { try makeDurable(upTo: nil) }

    /// Returns once everything up to `end` is on disk, sharing one `fsync` with concurrent callers.
    func makeDurable(upTo end: JournalPosition?) throws(TrackingError) {
        guard !isMemory else {
            lock.lock()
            defer { lock.unlock() }
            try publishMemory()
            return
        }
        syncLock.lock()
        defer { syncLock.unlock() }
        lock.lock()
        if let end, end <= durable { lock.unlock(); return }
        do { try writeBuffer() } catch { lock.unlock(); throw error }
        let target = JournalPosition(segment: active, offset: sizes[active] ?? 0)
        let targetCount = appended
        if target <= durable { lock.unlock(); return }
        let handles = store.syncHandles(order.filter { $0 >= durable.segment })
        lock.unlock()
        for handle in handles { _ = fsync(handle) }
        lock.lock()
        if durable < target {
            durable = target
            durableCount = max(durableCount, targetCount)
            markReadable()
        }
        lock.unlock()
    }

    // MARK: Reading

    /// The next batch, if one is due: a full batch is ready, or the oldest readable record has waited
    /// `interval`, or `force`.
    func take(maxCount: Int, maxBytes byteLimit: Int, interval: Duration, force: Bool) throws(TrackingError) -> JournalBatch? {
        lock.lock()
        defer { lock.unlock() }
        if isMemory { try publishMemory() }
        let readable = durableCount - taken
        guard readable > 0 else { readableSince = nil; return nil }
        if !force, readable < maxCount, let since = readableSince, since.duration(to: .now) < interval { return nil }
        var position = readCursor
        var payloads: [ArraySlice<UInt8>] = []
        var bytes = 0
        reading: while payloads.count < maxCount {
            let end: Int
            if position.segment < durable.segment { end = sizes[position.segment] ?? 0 }
            else if position.segment == durable.segment { end = durable.offset }
            else { break }
            if position.offset >= end {
                guard position.segment < durable.segment, let next = order.first(where: { $0 > position.segment }) else { break }
                position = JournalPosition(segment: next, offset: 0)
                continue
            }
            var chunk = try store.read(position.segment, offset: position.offset,
                                       count: min(end - position.offset, byteLimit + 64 * 1024))
            if case .incomplete = RecordFrame.scan(chunk, at: 0), chunk.count >= RecordFrame.headerSize,
               chunk.count < end - position.offset {
                let length = Int(RecordFrame.readUInt32(chunk, 0))
                chunk = try store.read(position.segment, offset: position.offset, count: min(end - position.offset, length + 8))
            }
            var index = 0
            while payloads.count < maxCount, index < chunk.count {
                switch RecordFrame.scan(chunk, at: index) {
                case .record(let payload, let next):
                    if !payloads.isEmpty, bytes + payload.count > byteLimit { position.offset += index; break reading }
                    payloads.append(payload)
                    bytes += payload.count
                    index = next
                case .incomplete:
                    if index == 0 {
                        readDamage.append("segment \(position.segment): unreadable record at offset \(position.offset); rest of segment skipped")
                        position.offset = end
                        continue reading
                    }
                    position.offset += index
                    continue reading
                case .corrupt(let reason):
                    readDamage.append("segment \(position.segment): \(reason) at offset \(position.offset + index); rest of segment skipped")
                    position.offset = end
                    continue reading
                }
            }
            position.offset += index
        }
        guard !payloads.isEmpty else { return nil }
        let batch = JournalBatch(start: readCursor, payloads: payloads)
        inFlight[readCursor] = payloads.count
        readCursor = position
        taken += payloads.count
        readableSince = durableCount > taken ? .now : nil
        return batch
    }

    /// Forgets a delivered (or dead-lettered) batch; deletes segments wholly before the checkpoint.
    func acknowledge(_ batch: JournalBatch) {
        lock.lock()
        defer { lock.unlock() }
        guard let count = inFlight.removeValue(forKey: batch.start) else { return }
        pending -= count
        let newCheckpoint = inFlight.keys.min() ?? readCursor
        guard newCheckpoint > checkpoint else { return }
        checkpoint = newCheckpoint
        writeCheckpoint()
        while let first = order.first, first < checkpoint.segment {
            order.removeFirst()
            totalBytes -= sizes.removeValue(forKey: first) ?? 0
            store.remove(first)
        }
    }

    // MARK: State

    /// Events accepted and not yet acknowledged.
    var pendingCount: Int { lock.lock(); defer { lock.unlock() }; return pending }
    /// Bytes of the segment files plus the buffer.
    var bytes: Int { lock.lock(); defer { lock.unlock() }; return totalBytes }
    /// Records not yet taken for delivery (durable or not).
    var untakenCount: Int { lock.lock(); defer { lock.unlock() }; return appended + bufferCount - taken }
    /// Batches out for delivery.
    var inFlightCount: Int { lock.lock(); defer { lock.unlock() }; return inFlight.count }

    /// Writes the buffer, syncs, records the checkpoint, closes the files and releases the directory.
    func close() {
        try? commit()
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        intakeClosed = true
        writeCheckpoint()
        store.close()
        if checkpointDescriptor >= 0 { closeDescriptor(checkpointDescriptor); checkpointDescriptor = -1 }
        if lockDescriptor >= 0 { closeDescriptor(lockDescriptor); lockDescriptor = -1 }
    }

    /// Stops accepting appends (reads and acknowledgements go on).
    func closeIntake() {
        lock.lock()
        intakeClosed = true
        lock.unlock()
    }
}
