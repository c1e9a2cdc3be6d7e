import Foundation

/// A child `recokit relay` (or `recokit journal`) with its stdin fed from a thread and its stderr
/// watched for `accepted N` lines.
final class RelayProcess: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let errors = Pipe()
    private let output = Pipe()
    /// What the child wrote to stdout (read when it exits).
    private(set) var stdout = ""
    private let lock = NSLock()
    private var highestAccepted = 0
    private var stderrText = ""
    private let readerDone = DispatchSemaphore(value: 0)

    /// The built `recokit` next to the test bundle in the build products folder.
    static var executable: URL {
        get throws {
            let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            for folder in [products, products.deletingLastPathComponent()] {
                let candidate = folder.appendingPathComponent("recokit")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            throw TestFailure("recokit is not built next to \(products.path); run `swift build` first")
        }
    }

    init(_ arguments: [String]) throws {
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = try Self.executable
        process.arguments = arguments
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        let handle = errors.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = ""
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += String(decoding: chunk, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending.removeSubrange(...newline)
                    lock.withLock {
                        stderrText += line + "\n"
                        if line.hasPrefix("accepted "), let count = Int(line.dropFirst(9)) { highestAccepted = max(highestAccepted, count) }
                    }
                }
            }
            readerDone.signal()
        }
    }

    /// Writes lines to stdin from a thread, stopping quietly when the child is gone; closes stdin at the end.
    func feed(_ lines: [String]) {
        let descriptor = input.fileHandleForWriting.fileDescriptor
        let handle = input.fileHandleForWriting
        Thread.detachNewThread {
            var bytes = [UInt8]()
            for line in lines { bytes += Array(line.utf8); bytes.append(10) }
            var offset = 0
            while offset < bytes.count {
                let wrote = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress!, min($0.count, 16 * 1024)) }
                if wrote <= 0 { break }
                offset += wrote
            }
            try? handle.close()
        }
    }

    /// The highest `accepted N` printed so far.
    var accepted: Int { lock.withLock { highestAccepted } }
    var stderr: String { lock.withLock { stderrText } }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        readerDone.wait()
    }

    /// Waits for the child to exit by itself; returns its status.
    func wait() -> Int32 {
        stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        readerDone.wait()
        return process.terminationStatus
    }
}
