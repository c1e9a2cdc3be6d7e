import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A test failure said in words.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A child `recokit-postgres relay` with its stdin fed from a thread, its stderr watched
/// for `accepted N` lines and its stdout for acknowledgements (`{"line":N,"ids":[…]}` or
/// `{"line":N,"refused":"…"}`), each read as it comes.
final class RelayProcess: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let errors = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var highestAccepted = 0
    private var stderrText = ""
    private var stdoutText = ""
    private var acceptedLines: [Int: [String]] = [:]
    private var refusedLines: [Int: String] = [:]
    private let readersDone = DispatchSemaphore(value: 0)
    /// Where ``feed(_:keepOpen:)`` writes, one feed after another.
    private let feeding = DispatchQueue(label: "RelayProcess.feed")

    /// The built `recokit-postgres` next to the test bundle in the build products folder.
    static var executable: URL {
        get throws {
            let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            for folder in [products, products.deletingLastPathComponent()] {
                let candidate = folder.appendingPathComponent("recokit-postgres")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            throw TestFailure("recokit-postgres is not built next to \(products.path); run `swift build` in Integrations first")
        }
    }

    /// `environment`: variables added to the test's own for the child (`LD_PRELOAD` for a fault shim).
    /// `nonBlockingInput`: the child's stdin is a pipe made non-blocking, as some runtimes make a child's.
    init(_ arguments: [String], environment: [String: String] = [:], nonBlockingInput: Bool = false) throws {
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = try Self.executable
        process.arguments = arguments
        if nonBlockingInput {
            let reading = input.fileHandleForReading.fileDescriptor
            _ = fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) | O_NONBLOCK)
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        readLines(errors.fileHandleForReading) { [self] line in
            stderrText += line + "\n"
            if line.hasPrefix("accepted "), let count = Int(line.dropFirst(9)) { highestAccepted = max(highestAccepted, count) }
        }
        readLines(output.fileHandleForReading) { [self] line in
            stdoutText += line + "\n"
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let number = object["line"] as? Int else { return }
            if let ids = object["ids"] as? [String] { acceptedLines[number] = ids }
            if let reason = object["refused"] as? String { refusedLines[number] = reason }
        }
    }

    /// Reads `handle` on a thread to its end, handing each line to `take` under the lock.
    private func readLines(_ handle: FileHandle, _ take: @escaping @Sendable (String) -> Void) {
        Thread.detachNewThread { [self] in
            var pending = ""
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += String(decoding: chunk, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending.removeSubrange(...newline)
                    lock.withLock { take(line) }
                }
            }
            readersDone.signal()
        }
    }

    /// Writes lines to stdin from a thread, stopping quietly when the child is gone; closes stdin at the
    /// end unless `keepOpen` (then ``closeInput()`` does). Feeds follow one another in the order they were
    /// asked for, each written whole before the next starts: two at once interleaved their 16 KiB writes
    /// whenever the pipe was full (a relay busy recovering), mangled lines, and shifted the numbers of
    /// the lines after them (the system-call fault rounds took a refused product's dead letter for a
    /// lost line: seed 5150, round 3).
    func feed(_ lines: [String], keepOpen: Bool = false) {
        let descriptor = input.fileHandleForWriting.fileDescriptor
        let handle = input.fileHandleForWriting
        feeding.async {
            var bytes = [UInt8]()
            for line in lines { bytes += Array(line.utf8); bytes.append(10) }
            var offset = 0
            while offset < bytes.count {
                let wrote = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress!, min($0.count, 16 * 1024)) }
                if wrote <= 0 { break }
                offset += wrote
            }
            if !keepOpen { try? handle.close() }
        }
    }

    /// Ends the child's input, once the feeds asked for before are written.
    func closeInput() { feeding.async { [input] in try? input.fileHandleForWriting.close() } }

    /// Writes `text` to stdin now, returning once the pipe has taken it all (the child may not have
    /// read it yet); false when the child is gone.
    @discardableResult
    func writeNow(_ text: String) -> Bool { writeNow(bytes: Array(text.utf8)) }

    /// Writes `bytes` to stdin now, as ``writeNow(_:)`` does: for input that is not UTF-8.
    @discardableResult
    func writeNow(bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes[offset...].withUnsafeBytes { Glibc.write(input.fileHandleForWriting.fileDescriptor, $0.baseAddress!, $0.count) }
            if wrote < 0, errno == EINTR { continue }
            if wrote <= 0 { return false }
            offset += wrote
        }
        return true
    }

    /// Sends `number` (SIGTERM, SIGINT) to the child.
    func send(_ number: Int32) { Foundation.kill(process.processIdentifier, number) }

    /// The highest `accepted N` printed so far.
    var accepted: Int { lock.withLock { highestAccepted } }
    var stderr: String { lock.withLock { stderrText } }
    /// What the child wrote to stdout so far (all of it once ``wait()`` or ``kill()`` returned).
    var stdout: String { lock.withLock { stdoutText } }
    /// The number a line of stdout gives after `label` (`pending` in `recokit journal`'s `pending 20`), or nil.
    func number(after label: String) -> Int? {
        stdout.split(separator: "\n").first { $0.hasPrefix(label + " ") }.flatMap { Int($0.dropFirst(label.count + 1)) }
    }
    /// The acknowledged lines so far: line number → event ids.
    var acknowledged: [Int: [String]] { lock.withLock { acceptedLines } }
    /// The refused lines so far: line number → reason.
    var refused: [Int: String] { lock.withLock { refusedLines } }
    /// How many lines were acknowledged or refused so far.
    var answeredCount: Int { lock.withLock { acceptedLines.count + refusedLines.count } }

    /// Waits (polling, real time, at most `limit`) until `condition` holds or the child exits; whether it holds.
    func waitUntil(limit: Duration = .seconds(30), _ condition: (RelayProcess) -> Bool) async -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if condition(self) { return true }
            if !process.isRunning {
                // The child is gone; what it wrote last may still be on its way through the pipe.
                let flushed = ContinuousClock.now + .seconds(2)
                while ContinuousClock.now < flushed {
                    if condition(self) { return true }
                    try? await Task.sleep(for: .milliseconds(10))
                }
                return condition(self)
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(self)
    }

    /// Kills the child (SIGKILL) unless it was reaped already, and waits for it and its pipes. Safe to call
    /// again, and after ``wait()``: a test calls it on every path (`defer`).
    func kill() {
        if !isReaped { Foundation.kill(process.processIdentifier, SIGKILL) }
        reap()
    }

    /// Kills every child of `children` first, then reaps them: a child started while another ran may
    /// hold that one's pipes open (inherited), so its output ends only once both are gone.
    static func kill(_ children: [RelayProcess]) {
        for child in children where !child.isReaped { Foundation.kill(child.process.processIdentifier, SIGKILL) }
        for child in children { child.reap() }
    }

    /// Waits for the child to exit by itself; returns its status.
    func wait() -> Int32 {
        reap()
        return status
    }

    /// The child's exit status, -1 while Foundation has not seen it end.
    var status: Int32 { process.isRunning ? -1 : process.terminationStatus }

    /// Asks the child to stop (SIGTERM) and waits for it at most `grace`, then kills it; returns its status.
    func stop(grace: Duration) async -> Int32 {
        send(SIGTERM)
        let end = ContinuousClock.now + grace
        while process.isRunning, ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(20)) }
        kill()
        return status
    }

    private var reaped = false
    private var isReaped: Bool { lock.withLock { reaped } }

    /// Waits for the child's exit and the end of its output, once.
    private func reap() {
        let first = lock.withLock { () -> Bool in
            defer { reaped = true }
            return !reaped
        }
        guard first else { return }
        // Not `waitUntilExit()`: it once missed a child's end and waited for ever. Its output's end is
        // what matters; the exit status comes after it, or not at all (then -1).
        // Bounded: a pipe another child inherited stays open as long as that child runs.
        for _ in 0..<2 { _ = readersDone.wait(timeout: .now() + 10) }
        let end = ContinuousClock.now + .seconds(5)
        while process.isRunning, ContinuousClock.now < end { Thread.sleep(forTimeInterval: 0.01) }
    }
}
