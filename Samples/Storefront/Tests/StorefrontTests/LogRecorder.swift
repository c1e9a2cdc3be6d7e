import Foundation
import Logging

/// A logger whose messages a test can read back (every level, with their metadata).
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// A logger writing here.
    func logger(_ label: String) -> Logger {
        Logger(label: label) { _ in Handler(recorder: self) }
    }

    /// Every message so far, one line each: `level message [key=value …]`.
    var messages: [String] { lock.withLock { lines } }

    fileprivate func append(_ line: String) { lock.withLock { lines.append(line) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let tail = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            recorder.append("\(event.level) \(event.message)\(tail.isEmpty ? "" : " [\(tail)]")")
        }
    }
}
