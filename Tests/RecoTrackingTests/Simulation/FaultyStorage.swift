import Foundation
import RecoKitTesting
@testable import RecoTracking

/// A disk in memory that knows what is durable: each file has what a reader sees now and what would
/// survive a power loss (what the last `sync`, `truncate` or durable `replace` left).
struct SimulatedDisk {
    struct File {
        var content: [UInt8] = []
        var durable: [UInt8] = []
    }

    var files: [String: File] = [:]

    /// The disk after the process dies: everything written stays (the system still has it).
    func afterProcessCrash() -> SimulatedDisk { self }

    /// The disk after a power loss: what was synced, plus, for a file that grew by appending since, a
    /// random part of what was appended (a torn tail); a file replaced without `sync` is old or new, or
    /// zeros.
    ///
    /// A torn tail comes in two kinds, one file in two each: the file ends within what was appended; or
    /// the file keeps its whole new length, but the appended bytes reached the disk only up to a block
    /// boundary (512 bytes), or not at all, and zeros stand for the rest (a file system that had grown the
    /// file, ext4 with delayed allocation or XFS, left its last blocks unwritten).
    func afterPowerLoss(_ random: inout SeededRandom) -> SimulatedDisk {
        var disk = self
        for (name, file) in files.sorted(by: { $0.key < $1.key }) {
            if file.content.starts(with: file.durable) {
                let extra = file.content.count - file.durable.count
                let kept = extra == 0 ? 0 : Int.random(in: 0...extra, using: &random)
                var content = Array(file.content.prefix(file.durable.count + kept))
                if extra > 0, Bool.random(using: &random) {
                    let written = max(file.durable.count, content.count / 512 * 512)
                    content = Array(file.content.prefix(written)) + repeatElement(0, count: file.content.count - written)
                }
                disk.files[name] = File(content: content, durable: file.durable)
            } else {
                // Replaced without `sync`: the old file, the new one, or (one in four) the new name over blocks
                // never written, zeros of the new length (a file system that made the rename durable first).
                let survivor = switch Int.random(in: 0..<4, using: &random) {
                case 0: [UInt8](repeating: 0, count: file.content.count)
                case 1: file.durable
                default: file.content
                }
                disk.files[name] = File(content: survivor, durable: survivor)
            }
            disk.files[name]!.durable = disk.files[name]!.content
        }
        return disk
    }
}

/// A ``JournalStorage`` over a ``SimulatedDisk`` that fails on purpose: an error (`ENOSPC`, `EIO`) from
/// any call, a short write, a failed `sync` that loses the unsynced pages, or a crash at any call (the
/// call is applied in part, then every call fails until the test "restarts the process").
final class FaultyStorage: JournalStorage, @unchecked Sendable {
    enum Operation: String, CaseIterable, Sendable { case list, size, read, append, sync, truncate, replace, remove }

    enum Fault: Equatable, Sendable, CustomStringConvertible {
        /// The call fails with nothing done (for `append`, a random prefix may be written first).
        case error(JournalStorageError.Kind)
        /// `append` writes a random part and says so.
        case shortWrite
        /// `sync` fails; the bytes appended since the last good sync are lost or garbled.
        case syncFailure
        /// The process dies during the call.
        case crash
        /// The machine loses power during the call (what it wrote may reach the disk in part, or as zeros).
        case powerLoss

        var description: String {
            switch self {
            case .error(let kind): "error(\(kind == .noSpace ? "ENOSPC" : "EIO"))"
            case .shortWrite: "short write"
            case .syncFailure: "sync failure"
            case .crash: "crash"
            case .powerLoss: "power loss"
            }
        }
    }

    /// A fault waiting for its call: after `countdown` more matching calls, `times` calls in a row fail.
    /// A call matches by its operation (any when nil) and the file it is on (any when nil).
    struct Armed: Sendable {
        var operation: Operation?
        var file: String? = nil
        var countdown: Int
        var fault: Fault
        var times: Int
    }

    private let lock = NSLock()
    private(set) var disk: SimulatedDisk
    private var random: SeededRandom
    var armed: [Armed] = []
    /// The process is dead: every call fails.
    private(set) var crashed = false
    /// It died because the machine lost power: the disk is what survives a power loss.
    private(set) var poweredOff = false
    /// Every fault that fired, for the failure message.
    private(set) var fired: [String] = []

    init(disk: SimulatedDisk = SimulatedDisk(), seed: UInt64) {
        self.disk = disk
        self.random = SeededRandom(seed: seed)
    }

    var location: String { "simulated disk" }
    func lock(exclusive: Bool) {}
    func exists() -> Bool { true }
    func close() {}

    func arm(_ fault: Fault, on operation: Operation?, file: String? = nil, after countdown: Int, times: Int = 1) {
        lock.withLock { armed.append(Armed(operation: operation, file: file, countdown: countdown, fault: fault, times: times)) }
    }

    func disarm() { lock.withLock { armed.removeAll() } }

    /// Flips one bit of a file, on disk and in what survives a power loss.
    func flip(_ name: String, offset: Int, bit: Int) {
        lock.withLock {
            guard var file = disk.files[name], offset < file.content.count else { return }
            file.content[offset] ^= UInt8(1 << bit)
            if offset < file.durable.count { file.durable[offset] ^= UInt8(1 << bit) }
            disk.files[name] = file
        }
    }

    /// The fault that fires on this call, if any (called with the lock held).
    private func fault(for operation: Operation, on name: String) -> Fault? {
        for index in armed.indices where (armed[index].operation == nil || armed[index].operation == operation)
            && (armed[index].file == nil || armed[index].file == name) {
            if armed[index].countdown > 0 { armed[index].countdown -= 1; continue }
            let fault = armed[index].fault
            // A fault that does not apply to this call waits for one it applies to.
            if fault == .shortWrite && operation != .append { continue }
            if fault == .syncFailure && operation != .sync { continue }
            armed[index].times -= 1
            if armed[index].times <= 0 { armed.remove(at: index) }
            fired.append("\(fault) on \(operation)")
            return fault
        }
        return nil
    }

    private func failure(_ kind: JournalStorageError.Kind, _ operation: Operation, _ name: String) -> JournalStorageError {
        JournalStorageError(kind: kind, description: "simulated \(kind == .noSpace ? "ENOSPC" : "EIO") on \(operation) \(name)")
    }

    private var dead: JournalStorageError { JournalStorageError(kind: .failed, description: "the process has crashed") }

    /// Runs a call: a crash or error fires before `body`, or `body` decides for itself what a fault does.
    private func perform<Result>(_ operation: Operation, _ name: String,
                                 _ body: (Fault?) throws(JournalStorageError) -> Result) throws(JournalStorageError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        guard !crashed else { throw dead }
        let fault = fault(for: operation, on: name)
        if case .error(let kind) = fault, operation != .append { throw failure(kind, operation, name) }
        if fault == .crash || fault == .powerLoss, operation != .append {
            crashed = true
            poweredOff = fault == .powerLoss
            throw dead
        }
        return try body(fault)
    }

    /// The names in an order of the seed's choosing (a directory's order is arbitrary; a dictionary's
    /// changes from one process to the next, and a replay must see the same).
    func list() throws(JournalStorageError) -> [String] { try perform(.list, "") { _ in disk.files.keys.sorted().shuffled(using: &random) } }

    func size(_ name: String) throws(JournalStorageError) -> Int? { try perform(.size, name) { _ in disk.files[name]?.content.count } }

    func read(_ name: String, offset: Int, count: Int) throws(JournalStorageError) -> [UInt8] {
        try perform(.read, name) { _ in
            guard let bytes = disk.files[name]?.content, offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
    }

    func append(_ name: String, _ bytes: ArraySlice<UInt8>) throws(JournalStorageError) -> Int {
        try perform(.append, name) { (fault: Fault?) throws(JournalStorageError) -> Int in
            var file = disk.files[name] ?? SimulatedDisk.File()
            switch fault {
            case .shortWrite, .crash, .powerLoss, .error:
                let part = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
                file.content += bytes.prefix(part)
                disk.files[name] = file
                if fault == .crash || fault == .powerLoss {
                    crashed = true
                    poweredOff = fault == .powerLoss
                    throw dead
                }
                if case .error(let kind) = fault { throw failure(kind, .append, name) }
                return part
            default:
                file.content += bytes
                disk.files[name] = file
                return bytes.count
            }
        }
    }

    func sync(_ name: String) throws(JournalStorageError) {
        try perform(.sync, name) { (fault: Fault?) throws(JournalStorageError) in
            guard var file = disk.files[name] else { throw failure(.failed, .sync, name) }
            if fault == .syncFailure {
                // The pages not yet synced are dropped or garbled, as after a real fsync failure.
                var tail = Array(file.content.dropFirst(file.durable.count))
                if !tail.isEmpty, Bool.random(using: &random) {
                    tail[Int.random(in: 0..<tail.count, using: &random)] ^= 0xFF
                } else {
                    tail = []
                }
                if file.content.starts(with: file.durable) { file.content = file.durable + tail }
                disk.files[name] = file
                throw failure(.failed, .sync, name)
            }
            file.durable = file.content
            disk.files[name] = file
        }
    }

    func truncate(_ name: String, to size: Int) throws(JournalStorageError) {
        try perform(.truncate, name) { _ in
            guard var file = disk.files[name] else { return }
            file.content = Array(file.content.prefix(size))
            file.durable = file.content
            disk.files[name] = file
        }
    }

    func replace(_ name: String, with bytes: [UInt8], durable: Bool) throws(JournalStorageError) {
        try perform(.replace, name) { _ in
            var file = disk.files[name] ?? SimulatedDisk.File()
            file.content = bytes
            if durable { file.durable = bytes }
            disk.files[name] = file
        }
    }

    func remove(_ name: String) throws(JournalStorageError) {
        try perform(.remove, name) { _ in disk.files[name] = nil }
    }
}
