#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `recokit relay`'s stdin, read on a thread of its own and handed over as whole lines: every line that
/// has arrived since the last call comes in one piece, so the relay can journal them together and pay
/// one commit for all of them.
///
/// The thread stops reading while about a megabyte of lines waits to be taken, so a relay that waits
/// for room in its journal stops reading stdin too. A line longer than ``maximumLineBytes`` is not kept:
/// its bytes are counted and dropped up to its end, and it comes as `.tooLong`, so that input without
/// line ends cannot fill the memory.
final class RelayInput: @unchecked Sendable {
    /// One line of input.
    enum Line: Equatable {
        case text(String)
        /// A line of this many bytes, more than ``maximumLineBytes``: refused.
        case tooLong(bytes: Int)
    }

    /// The longest line kept: the journal's largest record (4 MiB) could not hold more.
    static let maximumLineBytes = 4 << 20

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queued: [Line] = []
    private var queuedBytes = 0
    private var finished = false
    /// Why reading stopped before the end of input (`is a directory`, `input/output error`), if it did.
    private var failure: String?
    /// Set by ``stop()``: no more lines are handed over, whatever arrives.
    private var stopped = false
    private var waiter: CheckedContinuation<[Line]?, Never>?

    private static let queueLimit = 1 << 20

    /// Starts reading `descriptor` (stdin by default) until its end.
    init(descriptor: Int32 = 0) {
        Thread.detachNewThread { [self] in readLoop(descriptor) }
    }

    /// Why stdin could not be read to its end, once ``next()`` has answered nil: the system's reason. The
    /// line it was reading when that happened (no line end yet) is not handed over.
    var readFailure: String? { condition.withLock { failure } }

    /// The lines available now (at least one), waiting for some if none are; nil at the end of input.
    func next() async -> [Line]? {
        await withCheckedContinuation { (continuation: CheckedContinuation<[Line]?, Never>) in
            condition.lock()
            if stopped {
                condition.unlock()
                continuation.resume(returning: nil)
            } else if !queued.isEmpty {
                let lines = queued
                queued = []
                queuedBytes = 0
                condition.broadcast()
                condition.unlock()
                continuation.resume(returning: lines)
            } else if finished {
                condition.unlock()
                continuation.resume(returning: nil)
            } else {
                waiter = continuation
                condition.unlock()
            }
        }
    }

    private func readLoop(_ descriptor: Int32, maximumLineBytes: Int = RelayInput.maximumLineBytes) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var partial: [UInt8] = []
        var dropped = 0  // bytes of the current line dropped once it outgrew the limit (then `partial` is empty)
        /// Adds a piece of the current line, dropping the line's bytes once it is too long.
        func append(_ piece: ArraySlice<UInt8>) {
            if dropped == 0, partial.count + piece.count <= maximumLineBytes { return partial.append(contentsOf: piece) }
            dropped += partial.count + piece.count
            partial = []
        }
        /// The current line, ended.
        func take() -> (line: Line, bytes: Int) {
            defer {
                partial.removeAll(keepingCapacity: dropped == 0)
                dropped = 0
            }
            return dropped > 0 ? (.tooLong(bytes: dropped), 0) : (.text(Self.line(partial)), partial.count)
        }
        while true {
            let count: Int
            switch buffer.withUnsafeMutableBytes({ StandardStreams.read(descriptor, into: $0) }) {
            case .success(let got): count = got
            case .failure(let error): return finish(failure: error.reason)
            }
            guard count > 0 else {
                if !partial.isEmpty || dropped > 0 {
                    let last = take()
                    hand([last.line], bytes: last.bytes)
                }
                finish()
                return
            }
            var lines: [Line] = []
            var bytes = 0
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                append(buffer[start..<index])
                let line = take()
                lines.append(line.line)
                bytes += line.bytes
                start = index + 1
            }
            append(buffer[start..<count])
            if !lines.isEmpty { hand(lines, bytes: bytes) }
        }
    }

    /// A line without its `\r` (a `\r\n` ending), decoded as UTF-8 (invalid bytes become U+FFFD).
    private static func line(_ bytes: [UInt8]) -> String {
        if bytes.last == UInt8(ascii: "\r") { return String(decoding: bytes.dropLast(), as: UTF8.self) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Ends the input where it stands: ``next()`` answers nil from now on, at once if it waits, and lines
    /// not yet taken are never handed over (the reading thread drops what it reads from then on).
    func stop() {
        condition.lock()
        stopped = true
        queued = []
        queuedBytes = 0
        let waiter = self.waiter
        self.waiter = nil
        condition.broadcast()
        condition.unlock()
        waiter?.resume(returning: nil)
    }

    /// Gives lines to a waiting reader, or queues them (blocking while the queue is full).
    private func hand(_ lines: [Line], bytes: Int) {
        condition.lock()
        if stopped { return condition.unlock() }
        while waiter == nil, queuedBytes > Self.queueLimit { condition.wait() }
        if let waiter {
            self.waiter = nil
            condition.unlock()
            waiter.resume(returning: lines)
            return
        }
        queued.append(contentsOf: lines)
        queuedBytes += bytes
        condition.unlock()
    }

    private func finish(failure: String? = nil) {
        condition.lock()
        finished = true
        self.failure = failure
        let waiter = self.waiter
        self.waiter = nil
        condition.unlock()
        waiter?.resume(returning: nil)
    }
}
