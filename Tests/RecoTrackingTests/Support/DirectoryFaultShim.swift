import Foundation
import Testing

/// `Fixtures/directory-faults.c` built as a shared object, for `LD_PRELOAD` into a child `recokit`: the
/// journal directory's own `fsync`, `open` or a lock in it fails as a disk, a process out of descriptors or
/// a network file system fails it, while a trigger file exists. Built once per test run with the toolchain's `clang` (every Swift
/// toolchain has one), in a temporary folder.
enum DirectoryFaultShim {
    enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The directory's `fsync` fails with `EIO`.
        case fsyncFails = "fsync-eio"
        /// Opening the directory fails with `EMFILE` (the process is out of file descriptors).
        case openFails = "open-emfile"
        /// Locking a file in the directory fails with `ENOLCK` (a network file system without its lock service).
        case lockFails = "flock-enolck"

        /// The faults of the directory's `fsync` and `open`, which a new file's name meets.
        static let namingFaults: [Fault] = [.fsyncFails, .openFails]

        /// The system's words for it, as the journal's error quotes them (`%@`: the path).
        var reason: String {
            switch self {
            case .fsyncFails: "cannot fsync %@: Input/output error"
            case .openFails: "cannot open %@: Too many open files"
            case .lockFails: "cannot lock %@: No locks available"
            }
        }
        var testDescription: String { rawValue }
    }

    /// The built shim, or why it could not be built.
    static let built: Result<URL, TestFailure> = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/directory-faults.c")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-shim-\(UUID().uuidString)")
        let library = folder.appendingPathComponent("directory-faults.so")
        var candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/clang" }
        candidates += ["/opt/swift/usr/bin/clang", "/usr/bin/cc"]
        guard let compiler = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            return .failure(TestFailure("no C compiler: looked at \(candidates.joined(separator: ", "))"))
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: compiler)
            process.arguments = ["-shared", "-fPIC", "-O1", "-o", library.path, source.path, "-ldl"]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return .failure(TestFailure("\(compiler) could not build \(source.path)")) }
            return .success(library)
        } catch {
            return .failure(TestFailure("cannot run \(compiler): \(error)"))
        }
    }()

    /// The environment that makes `fault` hit `directory` in a child while `trigger` exists.
    static func environment(_ fault: Fault, directory: URL, trigger: URL) throws -> [String: String] {
        ["LD_PRELOAD": try built.get().path, "RECOKIT_FAULT": fault.rawValue,
         "RECOKIT_FAULT_DIRECTORY": directory.path, "RECOKIT_FAULT_TRIGGER": trigger.path]
    }
}
