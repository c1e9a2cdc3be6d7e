import Foundation
import Testing

/// Every command when its output cannot be written: standard output on a full disk or closed, standard
/// error on a full disk or closed. `FileHandle.write` traps on any failure, so each of these crashed
/// `recokit` (a backtrace and signal 4) where it now says so and exits 1 (or keeps the exit status it
/// had: a usage error stays 2).
@Suite("recokit: output that cannot be written")
struct OutputFaultTests {
    /// A run of `recokit` through `/bin/sh`, so that `redirections` (`> /dev/full`, `>&-`) apply.
    struct Run {
        var status: Int32
        var crashed: Bool
        var stdout: String
        var stderr: String
    }

    /// `before`: shell commands run first in the same shell (`ulimit -n 10;`).
    static func run(_ arguments: [String], redirections: String, before: String = "") throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout"), errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(before) exec \"$0\" \"$@\" \(redirections)", try RecokitChildProcess.executable().path] + arguments
        process.currentDirectoryURL = RecokitChildProcess.packageRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, crashed: process.terminationReason == .uncaughtSignal,
                   stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    static let payload = "Samples/Payloads/segmentify-product-page.json"
    /// Commands that write to standard output, as a user runs them.
    static let writers: [[String]] = [["--help"], ["help", "decode"], ["decode", payload], ["decode", payload, "--json"],
                                      ["render", payload], ["render", payload, "--format", "text"]]

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"), arguments: writers)
    func standardOutputOnAFullDiskIsAnErrorNotACrash(_ arguments: [String]) throws {
        let result = try Self.run(arguments, redirections: "> /dev/full")
        #expect(!result.crashed, "\(arguments): \(result.stderr)")
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasSuffix("error: cannot write standard output: no space left on device; what was written there is incomplete\n"),
                "\(arguments): \(result.stderr)")
    }

    @Test(arguments: writers)
    func aClosedStandardOutputIsAnErrorNotACrash(_ arguments: [String]) throws {
        let result = try Self.run(arguments, redirections: ">&-")
        #expect(!result.crashed, "\(arguments): \(result.stderr)")
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("error: cannot write standard output: bad file descriptor"), "\(arguments): \(result.stderr)")
    }

    @Test func theSameCommandsSucceedWhenTheirOutputIsWritten() throws {
        for arguments in Self.writers {
            let result = try Self.run(arguments, redirections: "")
            #expect(result.status == 0 && !result.stdout.isEmpty && !result.stderr.contains("error"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func standardErrorThatCannotBeWrittenKeepsTheExitStatus() throws {
        var redirections = ["2>&-"]
        if FileManager.default.fileExists(atPath: "/dev/full") { redirections.append("2> /dev/full") }
        for redirection in redirections {
            // A usage error (2), a missing file (1), and a run that writes only to standard output (0).
            for (arguments, status) in [(["nosuch"], Int32(2)), (["decode", "Samples/Payloads/no-such.json"], 1), (["decode", Self.payload], 0)] {
                let result = try Self.run(arguments, redirections: redirection)
                #expect(!result.crashed && result.status == status, "\(arguments) \(redirection): \(result.status)")
            }
        }
    }
}
