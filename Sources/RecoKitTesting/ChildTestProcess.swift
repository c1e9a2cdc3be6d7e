import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tests of this binary run again in a child process of their own: for a test that must hold, or
/// watch, the whole process (every cooperative thread, every URLSession), where the tests beside it
/// would do the same or be stopped by it.
package enum ChildTestProcess {
    /// Whether this process is such a child: a test meant for the child only is enabled by it, and the
    /// test that starts the child by its opposite.
    package static var isChild: Bool { ProcessInfo.processInfo.environment["RECOKIT_TEST_CHILD"] == "1" }

    /// What a child did.
    package struct Outcome: Sendable {
        /// Whether it ended within its time; a child that did not was killed.
        package var ended: Bool
        /// Its exit status, or the number of the signal that ended it when ``signalled``.
        package var status: Int32
        /// Whether a signal ended it (a trap is `SIGILL` or `SIGTRAP`), rather than an exit.
        package var signalled: Bool
        /// Its standard output and error, together.
        package var output: String
    }

    /// Runs the tests `filter` names (`Suite/test`) in a child process of this test binary, and waits
    /// for it at most `limit` (a minute: the child shares the machine with the rest of the suite), with
    /// `environment` added to this process's.
    package static func run(_ filter: String, limit: Duration = .seconds(60),
                            environment: [String: String] = [:]) async throws -> Outcome {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        // The child's temporary folder is one of its own, removed here: a child that crashes or is killed
        // on purpose runs none of its clean-ups, and what it made must not stay behind.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-test-child-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        child.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            .merging(["RECOKIT_TEST_CHILD": "1", "TMPDIR": folder.path]) { _, new in new }
        // A file, not a pipe: a child killed here leaves its stand-in servers holding what they inherited.
        let log = folder.appendingPathComponent("output.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let deadline = ContinuousClock.now + limit
        while child.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let ended = !child.isRunning
        if !ended { kill(child.processIdentifier, SIGKILL) }
        try await blockingWork { child.waitUntilExit() }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(ended: ended, status: child.terminationStatus,
                       signalled: child.terminationReason == .uncaughtSignal, output: text)
    }
}
