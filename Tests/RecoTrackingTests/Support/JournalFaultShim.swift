import Foundation
import Testing

/// `Fixtures/journal-faults.c` built as a shared object, for `LD_PRELOAD` into a child `recokit`: the
/// system calls of its journal fail as a disk, a process out of descriptors or a network file system
/// fails them. Either a named fault of the directory itself while a trigger file exists, or one counted
/// call on the journal's files (``call(_:error:repeat:directory:log:)``). Built once per test run with the
/// toolchain's `clang` (every Swift toolchain has one), in a temporary folder.
enum JournalFaultShim {
    enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The directory's `fsync` fails with `EIO`.
        case fsyncFails = "fsync-eio"
        /// Opening the directory fails with `EMFILE` (the process is out of file descriptors).
        case openFails = "open-emfile"
        /// Locking a file in the directory fails with `ENOLCK` (a network file system without its lock service).
        case lockFails = "flock-enolck"
        /// Opening the directory or a file in it waits until the trigger is gone (a disk or a network file
        /// system that does not answer); `TRIGGER.stalled` exists once a call waits.
        case openStalls = "open-stall"

        /// The faults of the directory's `fsync` and `open`, which a new file's name meets.
        static let namingFaults: [Fault] = [.fsyncFails, .openFails]

        /// The system's words for it, as the journal's error quotes them (`%@`: the path).
        var reason: String {
            switch self {
            case .fsyncFails: "cannot fsync %@: Input/output error"
            case .openFails: "cannot open %@: Too many open files"
            case .lockFails: "cannot lock %@: No locks available"
            case .openStalls: "(none: the call waits, then succeeds)"
            }
        }
        var testDescription: String { rawValue }
    }

    /// Where the shim is built, once per test process; removed when the process exits (every child that
    /// loads it has ended by then).
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-shim-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: JournalFaultShim.folder) }
        return folder
    }()

    /// The built shim, or why it could not be built.
    static let built: Result<URL, TestFailure> = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/journal-faults.c")
        let folder = Self.folder
        let library = folder.appendingPathComponent("journal-faults.so")
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

    /// The system calls the shim counts.
    static let callNames = ["open", "write", "pwrite", "pread", "fsync", "fdatasync", "ftruncate", "rename", "unlink"]

    /// The environment that makes call number `number` of those named `name` (of all, when empty) on
    /// `directory`'s files fail (and `repeat - 1` after it) with `error` (`EIO`, `ENOSPC`, or `SHORT`: a
    /// write takes half its bytes); `log` gets the counts at exit (``CallLog``). `number` 0 fails nothing
    /// and only counts.
    /// `file`: only calls on the file of that name count (all files when empty).
    static func call(_ number: Int, named name: String = "", on file: String = "", error: String, repeat times: Int, directory: URL,
                     log: URL) throws -> [String: String] {
        ["LD_PRELOAD": try built.get().path, "RECOKIT_FAULT": "call", "RECOKIT_FAULT_CALL": String(number), "RECOKIT_FAULT_NAME": name,
         "RECOKIT_FAULT_FILE": file,
         "RECOKIT_FAULT_ERROR": error, "RECOKIT_FAULT_REPEAT": String(times), "RECOKIT_FAULT_DIRECTORY": directory.path,
         "RECOKIT_FAULT_LOG": log.path]
    }

    /// What a child wrote to its log at exit: calls counted, calls failed, the first that failed and its file.
    struct CallLog {
        var calls = 0
        var fired = 0
        var first = "-"
        var file = "-"
        /// The calls made of each name.
        var made: [String: Int] = [:]

        /// Reads `calls C fired F first NAME FILE`; nil when the child left no log (it did not exit normally).
        init?(_ url: URL) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            let lines = text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            guard let words = lines.first, words.count == 7, let calls = Int(words[1]), let fired = Int(words[3]) else { return nil }
            (self.calls, self.fired, first, file) = (calls, fired, words[5], words[6])
            for line in lines.dropFirst() where line.count == 2 { made[line[0]] = Int(line[1]) }
        }
    }

    /// The environment that makes `fault` hit `directory` in a child while `trigger` exists.
    static func environment(_ fault: Fault, directory: URL, trigger: URL) throws -> [String: String] {
        ["LD_PRELOAD": try built.get().path, "RECOKIT_FAULT": fault.rawValue,
         "RECOKIT_FAULT_DIRECTORY": directory.path, "RECOKIT_FAULT_TRIGGER": trigger.path]
    }
}
