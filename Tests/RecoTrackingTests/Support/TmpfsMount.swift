import Foundation

/// A small tmpfs mounted for one test (a disk that can be filled on purpose). Needs root and a kernel
/// that lets this process mount; ``isAvailable`` says whether it can, by trying once.
final class TmpfsMount: @unchecked Sendable {
    let path: URL

    /// Whether `mount -t tmpfs` works here (tried once with a 64 KiB mount).
    static let isAvailable: Bool = {
        guard geteuid() == 0, let probe = try? TmpfsMount(kilobytes: 64) else { return false }
        probe.unmount()
        return true
    }()

    /// Mounts a tmpfs of `kilobytes` on a new temporary folder.
    init(kilobytes: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        guard Self.run(["mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path.path]) == 0 else {
            try? FileManager.default.removeItem(at: path)
            throw TestFailure("mount -t tmpfs failed on \(path.path)")
        }
    }

    /// Bytes free for files.
    var freeBytes: Int {
        var info = statvfs()
        guard statvfs(path.path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Unmounts (lazily, should a child still hold a file) and removes the folder.
    func unmount() {
        _ = Self.run(["umount", "-l", path.path])
        try? FileManager.default.removeItem(at: path)
    }

    private static func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
