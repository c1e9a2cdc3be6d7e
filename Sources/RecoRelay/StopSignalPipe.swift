#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// SIGTERM, SIGINT and SIGHUP as bytes on a pipe: a handler writes each signal's number to the pipe
/// (`write` is async-signal-safe, and the handler does nothing else), and a thread of its own reads them
/// and hands each to the receiver of the moment (``RelaySignals``).
///
/// Why not a dispatch signal source: on Linux one sees a signal only if no thread of the process takes
/// it, and the main thread of an `async` main ends in libdispatch's wait for signals with none blocked.
/// A signal that landed there was lost: a relay sent SIGTERM while its journal opened never heard it,
/// and read stdin past its `--deadline` until it was killed. A handler runs on whichever thread takes
/// the signal, so none is lost.
enum StopSignalPipe {
    static let handled = [SIGTERM, SIGINT, SIGHUP]

    /// The receiver of the signals from now on (nil: none, and a signal stops the process as its default
    /// would). The handlers are installed by the first call.
    static func route(to receiver: (@Sendable (Int32) -> Void)?) {
        _ = installed
        lock.withLock { current = receiver }
    }

    private static let lock = NSLock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var current: (@Sendable (Int32) -> Void)?

    /// Creates the pipe, starts its reader and installs the handlers, once.
    private static let installed: Bool = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe makes the handler's write fail, never wait (a signal storm loses repeats only).
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        stopSignalWriteEnd = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                deliver(Int32(byte))
            }
        }
        // signal(2) on glibc and Darwin: the handler stays installed, and calls it interrupts restart.
        for number in handled { signal(number, stopSignalHandler) }
        return true
    }()

    private static func deliver(_ number: Int32) {
        if let receiver = lock.withLock({ current }) {
            receiver(number)
        } else {
            signal(number, SIG_DFL)
            kill(getpid(), number)
        }
    }
}

/// The pipe's write end, for the handler (set once, before any handler is installed).
nonisolated(unsafe) private var stopSignalWriteEnd: Int32 = -1

/// Writes the signal's number to the pipe and nothing else: what a signal handler may do.
private func stopSignalHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(stopSignalWriteEnd, &byte, 1)
    errno = saved
}
