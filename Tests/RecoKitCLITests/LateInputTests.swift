#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `recokit decode -` and `render -` reading a payload that comes late through a pipe its opener made
/// non-blocking (as some runtimes make a child's pipes). `FileHandle` answered "resource temporarily
/// unavailable" when nothing had come yet, and the command failed; a blocking pipe waited.
@Suite("recokit decode - and render - wait for a payload on a non-blocking pipe")
struct LateInputTests {
    /// Runs `recokit` with its stdin a non-blocking pipe into which `payload` is written after `delay`,
    /// in pieces of 1,000 bytes 20 ms apart.
    static func run(_ arguments: [String], payload: Data, after delay: Duration) async throws -> RecokitChildProcess.Result {
        signal(SIGPIPE, SIG_IGN)  // a child that stopped reading must fail the test, not kill it
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        try #require(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) == 0)
        let reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let writing = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let output = Pipe(), errors = Pipe()
        let process = Process()
        process.executableURL = try RecokitChildProcess.executable()
        process.arguments = arguments
        process.currentDirectoryURL = RecokitChildProcess.packageRoot
        process.standardInput = reading
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try reading.close()
        try await Task.sleep(for: delay)
        var offset = 0
        while offset < payload.count {
            let piece = payload[payload.startIndex + offset ..< payload.startIndex + min(payload.count, offset + 1000)]
            // A child that stopped reading (it took an empty pipe for the end): the status says the rest.
            guard (try? writing.write(contentsOf: piece)) != nil else { break }
            offset += piece.count
            try await Task.sleep(for: .milliseconds(20))
        }
        try? writing.close()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RecokitChildProcess.Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                          stderr: String(decoding: stderr, as: UTF8.self))
    }

    static let payloadPath = "Samples/Payloads/segmentify-product-page.json"

    @Test(arguments: [["decode", "-"], ["render", "-", "--format", "text"]])
    func aPayloadThatComesLateIsWaitedFor(_ arguments: [String]) async throws {
        let payload = try Data(contentsOf: RecokitChildProcess.packageRoot.appendingPathComponent(Self.payloadPath))
        let late = try await Self.run(arguments, payload: payload, after: .milliseconds(300))
        let file = try RecokitChildProcess.run(arguments.map { $0 == "-" ? Self.payloadPath : $0 })
        #expect(late.status == 0, "\(late.stderr)")
        #expect(file.status == 0, "\(file.stderr)")
        #expect(late.stdout == file.stdout.replacingOccurrences(of: Self.payloadPath, with: "<stdin>"), "\(late.stdout.prefix(400))")
    }
}
