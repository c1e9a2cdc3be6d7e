import Foundation
@testable import RecoTracking
import Testing

/// A payload larger than the JSON limit (64 MiB unless set) is refused without being read: a file by its
/// size, standard input once one byte past the limit has come. Before, `recokit decode -` read standard
/// input to its end, so `yes '[' | recokit decode -` grew by about half a gigabyte a second until the
/// system killed it, and a 10 GB file was read whole before the parser refused it.
@Suite("Payloads past the size limit are refused unread")
struct EndlessInputTests {
    static let limit = 64 << 20
    static let refusal = "JSON limit exceeded: a document of more than \(limit) bytes (JSONLimits.maximumInputBytes) at $ (line 1, column 1)"

    /// `recokit` with `arguments`, its standard input an endless stream of `[`; what it printed on standard
    /// error, how it ended, and how many bytes it took before it did.
    func runOnEndlessInput(_ arguments: [String]) throws -> (status: Int32, stderr: String, fed: Int) {
        let process = Process()
        process.executableURL = try RecokitChildProcess.executable()
        process.arguments = arguments
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        let fed = Locked(0)
        let writer = input.fileHandleForWriting.fileDescriptor
        let feeding = Thread {
            let chunk = [UInt8](repeating: UInt8(ascii: "["), count: 64 << 10)
            while true {
                let wrote = chunk.withUnsafeBytes { write(writer, $0.baseAddress!, $0.count) }
                if wrote <= 0 { break }   // the child is gone (EPIPE)
                fed.withLock { $0 += wrote }
            }
        }
        feeding.start()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self), fed.withLock { $0 })
    }

    @Test(arguments: [["decode", "-"], ["render", "-"], ["decode", "-", "--json"]])
    func endlessStandardInputIsRefusedAtTheLimit(arguments: [String]) throws {
        let run = try runOnEndlessInput(arguments)
        #expect(run.status == 1, "\(arguments): exit \(run.status), \(run.stderr.prefix(300))")
        #expect(run.stderr == "error: <stdin>: \(Self.refusal)\n", "\(run.stderr.prefix(300))")
        // The limit and one byte, and what the pipe and the last chunk held when the child stopped reading.
        #expect(run.fed <= Self.limit + (2 << 20), "it read \(run.fed) bytes")
    }

    @Test func aFileLargerThanTheLimitIsRefusedByItsSize() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 10 GB that take no room on disk: read whole, they would fill memory.
        let file = folder.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("[".utf8)))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 10_000_000_000)
        try handle.close()
        for command in ["decode", "render"] {
            let run = try RecokitChildProcess.run([command, file.path])
            #expect(run.status == 1)
            #expect(run.stderr == "error: \(file.path): JSON limit exceeded: a document of 10000000000 bytes, more than \(Self.limit) "
                    + "(JSONLimits.maximumInputBytes) at $ (line 1, column 1)\n", "\(run.stderr.prefix(300))")
        }
    }

    /// At the limit, the whole document is read (and parsed: here, white space only).
    @Test func aDocumentOfExactlyTheLimitIsRead() throws {
        let run = try RecokitChildProcess.run(["decode", "-"], stdin: Data(repeating: UInt8(ascii: " "), count: Self.limit))
        #expect(run.stderr == "error: <stdin>: invalid JSON: no JSON value, only white space at $ (line 1, column \(Self.limit + 1))\n",
                "\(run.stderr.prefix(300))")
    }
}
