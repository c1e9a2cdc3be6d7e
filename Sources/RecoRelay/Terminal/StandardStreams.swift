#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Standard input, output and error as `recokit` uses them: written with `write(2)`, so that a full
/// disk, a reader that went away or a closed descriptor is a failure the program reports and exits 1
/// for, never a trap (`FileHandle.write` traps on any error: `recokit --help > /dev/full` crashed).
///
/// Standard error that cannot be written is passed over (there is nowhere left to say so); standard
/// output that cannot be written is the command's failure: its first error is kept, and ``finish(_:)``
/// says it on standard error and makes the exit status 1.
package enum StandardStreams {
    /// Makes sure descriptors 0, 1 and 2 are open before any file is. One the caller closed (`>&-`) would
    /// otherwise be the next file the program opens (a journal's directory or segment), and what is meant
    /// for standard output or error would be written into it. Each closed one is opened on `/dev/null`
    /// and remembered: writing to a standard output closed at start fails as writing to a closed
    /// descriptor does, and the relay refuses to run without somewhere to write acknowledgements.
    package static func secure() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                // Lower descriptors were open, so this cannot happen; if it does, keep the number taken.
                _ = dup2(opened, descriptor)
                _ = close(opened)
            }
            state.withLock { _ = $0.closedAtStart.insert(descriptor) }
        }
    }

    /// Whether standard output was closed when the program started (see ``secure()``).
    package static var outputClosedAtStart: Bool { state.withLock { $0.closedAtStart.contains(1) } }

    /// The first failure to write standard output, in words (`no space left on device`), or nil.
    package static var outputFailure: String? { state.withLock { $0.outputFailure } }

    /// Writes `bytes` whole to standard output; a failure is kept for ``finish(_:)``.
    package static func writeOutput(_ bytes: some Collection<UInt8>) {
        if state.withLock({ $0.closedAtStart.contains(1) }) { return record(EBADF) }
        if let failure = write(bytes, to: 1) { record(failure) }
    }

    /// Writes `bytes` whole to standard error; a failure is passed over.
    package static func writeError(_ bytes: some Collection<UInt8>) {
        _ = write(bytes, to: 2)
    }

    /// The exit status of a command that returned `status`, once what it wrote is accounted for: a
    /// failure to write standard output is said on standard error and makes a success 1.
    package static func finish(_ status: Int32) -> Int32 {
        guard let failure = outputFailure else { return status }
        writeError("error: cannot write standard output: \(failure); what was written there is incomplete\n".utf8)
        return status == 0 ? 1 : status
    }

    /// A read that failed, with the system's reason.
    package struct ReadFailure: Error {
        var code: Int32
        /// The system's words, in lower case (`is a directory`).
        package var reason: String { String(cString: strerror(code)).lowercased() }
    }

    /// Reads up to `buffer.count` bytes from `descriptor` (standard input, by the commands that read it):
    /// how many, 0 at the end of input. Again after an interruption; on a descriptor its opener made
    /// non-blocking (as some runtimes make a child's pipes), it waits for input as a blocking one would:
    /// `EAGAIN` there means "nothing yet", and taken for the end of input it ended a relay fed a line at a
    /// time, which exited 0 before its first line came.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, ReadFailure> {
        while true {
            #if canImport(Glibc)
            let got = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
            let got = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if got >= 0 { return .success(got) }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else { return .failure(ReadFailure(code: code)) }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, -1) < 0, errno != EINTR { return .failure(ReadFailure(code: errno)) }
        }
    }

    /// Writes `bytes` whole to `descriptor`, again after an interruption, a short write or a full
    /// non-blocking descriptor; the `errno` of a failure, or nil.
    package static func write(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Int32? {
        let result: Int32?? = bytes.withContiguousStorageIfAvailable { writeAll($0, to: descriptor) }
        if let result { return result }
        return Array(bytes).withUnsafeBufferPointer { writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
        guard var start = buffer.baseAddress else { return nil }
        var left = buffer.count
        while left > 0 {
            #if canImport(Glibc)
            let wrote = Glibc.write(descriptor, start, left)
            #else
            let wrote = Darwin.write(descriptor, start, left)
            #endif
            if wrote < 0, errno == EINTR { continue }
            if wrote < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                // A descriptor its opener made non-blocking, full for now (a slow reader of a pipe): wait
                // until it takes more, as a blocking one would.
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
                return errno
            }
            guard wrote > 0 else { return wrote < 0 ? errno : EIO }
            start += wrote
            left -= wrote
        }
        return nil
    }

    private static func record(_ code: Int32) {
        let reason = String(cString: strerror(code)).lowercased()
        state.withLock { if $0.outputFailure == nil { $0.outputFailure = reason } }
    }

    private struct State {
        var closedAtStart: Set<Int32> = []
        var outputFailure: String?
    }

    private final class Guarded: @unchecked Sendable {
        private let lock = NSLock()
        private var value = State()
        func withLock<Result>(_ body: (inout State) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    private static let state = Guarded()
}
