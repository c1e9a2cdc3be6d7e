#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where journal segments live: numbered append-only byte files. Not thread-safe; the journal's
/// lock guards every call except `fsync` on a handle from ``syncHandles(_:)``.
protocol SegmentStore: AnyObject {
    func list() throws(TrackingError) -> [UInt64]
    func readAll(_ segment: UInt64) throws(TrackingError) -> [UInt8]
    func read(_ segment: UInt64, offset: Int, count: Int) throws(TrackingError) -> [UInt8]
    func append(_ segment: UInt64, _ bytes: [UInt8]) throws(TrackingError)
    func truncate(_ segment: UInt64, to size: Int) throws(TrackingError)
    func remove(_ segment: UInt64)
    /// File descriptors to `fsync` outside the lock (empty in memory).
    func syncHandles(_ segments: [UInt64]) -> [Int32]
    func close()
}

/// Segments as files `DIR/segment-000000000001.log`.
final class FileSegmentStore: SegmentStore {
    let directory: URL
    private var handles: [UInt64: Int32] = [:]

    init(directory: URL) { self.directory = directory }

    func path(_ segment: UInt64) -> String {
        let digits = String(segment)
        return directory.appendingPathComponent("segment-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits + ".log").path
    }

    func list() throws(TrackingError) -> [UInt64] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            throw .journal("cannot list \(directory.path): \(error.localizedDescription)")
        }
        return names.compactMap { name -> UInt64? in
            guard name.hasPrefix("segment-"), name.hasSuffix(".log") else { return nil }
            return UInt64(name.dropFirst(8).dropLast(4))
        }.sorted()
    }

    private func handle(_ segment: UInt64) throws(TrackingError) -> Int32 {
        if let fd = handles[segment] { return fd }
        let existed = access(path(segment), F_OK) == 0
        let fd = open(path(segment), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .journal("cannot open \(path(segment)): \(String(cString: strerror(errno)))") }
        handles[segment] = fd
        if !existed { syncDirectory() }
        return fd
    }

    func readAll(_ segment: UInt64) throws(TrackingError) -> [UInt8] {
        let fd = try handle(segment)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .journal("cannot stat \(path(segment))") }
        return try read(segment, offset: 0, count: Int(info.st_size))
    }

    func read(_ segment: UInt64, offset: Int, count: Int) throws(TrackingError) -> [UInt8] {
        let fd = try handle(segment)
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .journal("cannot read \(path(segment)): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            done += got
        }
        if done < count { bytes.removeLast(count - done) }
        return bytes
    }

    func append(_ segment: UInt64, _ bytes: [UInt8]) throws(TrackingError) {
        let fd = try handle(segment)
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if wrote < 0 {
                if errno == EINTR { continue }
                throw .journal("cannot write \(path(segment)): \(String(cString: strerror(errno)))")
            }
            done += wrote
        }
    }

    func truncate(_ segment: UInt64, to size: Int) throws(TrackingError) {
        let fd = try handle(segment)
        guard ftruncate(fd, off_t(size)) == 0 else { throw .journal("cannot truncate \(path(segment))") }
        _ = fsync(fd)
    }

    func remove(_ segment: UInt64) {
        if let fd = handles.removeValue(forKey: segment) { closeDescriptor(fd) }
        unlink(path(segment))
    }

    func syncHandles(_ segments: [UInt64]) -> [Int32] { segments.compactMap { handles[$0] } }

    /// Makes a new file's name durable (a file `fsync` does not cover its directory entry).
    private func syncDirectory() {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        closeDescriptor(fd)
    }

    func close() {
        for fd in handles.values { closeDescriptor(fd) }
        handles.removeAll()
    }
}

/// Segments in memory, for the opt-in `memory` durability (tests, benchmarks).
final class MemorySegmentStore: SegmentStore {
    private var segments: [UInt64: [UInt8]] = [:]
    private let capacity: Int

    /// `capacity`: the segment size, reserved at once so a growing segment is never copied.
    init(capacity: Int) { self.capacity = capacity }

    func list() -> [UInt64] { segments.keys.sorted() }
    func readAll(_ segment: UInt64) -> [UInt8] { segments[segment] ?? [] }
    func read(_ segment: UInt64, offset: Int, count: Int) -> [UInt8] {
        guard let bytes = segments[segment], offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + count)])
    }
    func append(_ segment: UInt64, _ bytes: [UInt8]) {
        if segments[segment] == nil {
            var fresh = [UInt8]()
            fresh.reserveCapacity(capacity + 512 * 1024)
            segments[segment] = fresh
        }
        segments[segment]!.append(contentsOf: bytes)
    }
    func truncate(_ segment: UInt64, to size: Int) {
        guard var bytes = segments[segment] else { return }
        bytes.removeLast(max(0, bytes.count - size))
        segments[segment] = bytes
    }
    func remove(_ segment: UInt64) { segments[segment] = nil }
    func syncHandles(_ segments: [UInt64]) -> [Int32] { [] }
    func close() {}
}

func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
