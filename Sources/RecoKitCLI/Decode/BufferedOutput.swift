import Foundation
import RecoRelay

/// Somewhere text is written to, piece by piece.
protocol TextSink {
    mutating func write(_ text: String)
}

extension String: TextSink {
    mutating func write(_ text: String) { self += text }
}

/// Text written to standard output in chunks of 64 KB: a large output is never held whole, and never
/// written a few bytes at a time. Call ``flush()`` at the end.
struct BufferedOutput: TextSink {
    private var buffer: [UInt8] = []
    private static let chunk = 1 << 16

    /// Text for standard output (``StandardStreams``: a failure to write is the command's, reported at exit).
    init() {
        buffer.reserveCapacity(Self.chunk + 4096)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.chunk { flush() }
    }

    /// Writes what is buffered.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardStreams.writeOutput(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
