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
        /// A line whose bytes are not UTF-8, the first bad one at this offset (from 0): refused, never
        /// repaired (two ids differing only in their bad bytes would reach the vendor as one).
        case invalidUTF8(offset: Int)
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
    /// Set once ``endAtWhatHasArrived()`` ended the input: the bytes of a line without its end, not taken.
    private var unfinished: Int?
    /// Wakes the reading thread from its wait for input (``endAtWhatHasArrived()``): read end, write end.
    private let wake: (read: Int32, write: Int32)

    private static let queueLimit = 1 << 20
    /// The most read after ``endAtWhatHasArrived()`` (what a pipe's buffer holds, and more), so that a
    /// producer that never pauses cannot keep a stopping relay reading.
    private static let drainLimit = 4 << 20

    /// Starts reading `descriptor` (stdin by default) until its end.
    init(descriptor: Int32 = 0) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        wake = (ends[0], ends[1])
        Thread.detachNewThread { [self] in readLoop(descriptor) }
    }

    /// Why stdin could not be read to its end, once ``next()`` has answered nil: the system's reason. The
    /// line it was reading when that happened (no line end yet) is not handed over.
    var readFailure: String? { condition.withLock { failure } }

    /// Once ``endAtWhatHasArrived()`` ended the input: the bytes of the line it was reading, without its
    /// end yet, which was not taken (0 when the input ended between lines); nil otherwise.
    var unfinishedLineBytes: Int? { condition.withLock { unfinished } }

    /// Ends the input at what has already arrived (a stopping relay): the lines stdin holds now are read
    /// and handed over, then ``next()`` answers nil, without waiting for more. A line without its end yet
    /// is not taken (``unfinishedLineBytes``).
    func endAtWhatHasArrived() {
        _ = StandardStreams.write(CollectionOfOne(UInt8(1)), to: wake.write)
    }

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
            return dropped > 0 ? (.tooLong(bytes: dropped), 0) : (Self.line(partial), partial.count)
        }
        var draining = false
        var drained = 0
        while true {
            if !draining, wake.read >= 0 {
                // Waits for input or for the end asked by `endAtWhatHasArrived()`, whichever comes first.
                var ready = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
                if poll(&ready, 2, -1) < 0, errno == EINTR { continue }
                draining = ready[1].revents != 0
            }
            if draining {
                // Only what has arrived: a read that would wait ends the input here.
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard drained < Self.drainLimit, poll(&ready, 1, 0) > 0 else {
                    return finish(unfinished: partial.count + dropped)
                }
            }
            let count: Int
            switch buffer.withUnsafeMutableBytes({ StandardStreams.read(descriptor, into: $0) }) {
            case .success(let got): count = got
            case .failure(let error): return finish(failure: error.reason)
            }
            if draining { drained += count }
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

    /// A line without its `\r` (a `\r\n` ending), decoded as UTF-8, or where its first byte that is not.
    private static func line(_ bytes: [UInt8]) -> Line {
        let content = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...]
        if let text = String(validating: content, as: UTF8.self) { return .text(text) }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = content.makeIterator()
        var offset = 0
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
        return .invalidUTF8(offset: offset)
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

    private func finish(failure: String? = nil, unfinished: Int? = nil) {
        condition.lock()
        finished = true
        self.failure = failure
        self.unfinished = unfinished
        let waiter = self.waiter
        self.waiter = nil
        condition.unlock()
        waiter?.resume(returning: nil)
    }
}
