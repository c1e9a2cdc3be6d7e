import Foundation

/// Files in memory, for the opt-in ``Durability/memory`` (tests, benchmarks): nothing survives the process.
final class MemoryJournalStorage: JournalStorage, @unchecked Sendable {
    private let files = Locked<[String: [UInt8]]>([:])
    /// Bytes reserved for a new file, so a growing segment is not copied as it grows.
    private let reserve: Int

    init(reserve: Int = 0) { self.reserve = reserve }

    var location: String { "memory" }
    func lock(exclusive: Bool) {}
    func exists() -> Bool { true }
    func list() -> [String] { files.withLock { Array($0.keys) } }
    func size(_ name: String) -> Int? { files.withLock { $0[name]?.count } }

    func read(_ name: String, offset: Int, count: Int) -> [UInt8] {
        files.withLock { files in
            guard let bytes = files[name], offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
    }

    func append(_ name: String, _ bytes: ArraySlice<UInt8>) -> Int {
        files.withLock { files in
            if files[name] == nil {
                var fresh = [UInt8]()
                fresh.reserveCapacity(reserve)
                files[name] = fresh
            }
            files[name]!.append(contentsOf: bytes)
        }
        return bytes.count
    }

    func sync(_ name: String) {}

    func truncate(_ name: String, to size: Int) {
        files.withLock { files in
            guard let count = files[name]?.count, count > size else { return }
            files[name]!.removeLast(count - size)
        }
    }

    func replace(_ name: String, with bytes: [UInt8], durable: Bool) { files.withLock { $0[name] = bytes } }
    func remove(_ name: String) { files.withLock { $0[name] = nil } }
    func close() {}
}
