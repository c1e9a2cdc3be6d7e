#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// System calls made again when a signal interrupts them (`EINTR`), for every file RecoKit writes: the
/// journal's and the files the command line replaces.
///
/// An interruption says nothing of the disk: a handler of the host process installed without
/// `SA_RESTART`, or a sampling profiler's `SIGPROF`, interrupts calls on a network or FUSE file system.
/// Each call that was not made again was taken for the disk's failure: the relay stopped, a tracker
/// reported a disk error, a preview failed.
package enum SystemCall {
    /// `call`'s result, made again while it fails with `EINTR`.
    package static func uninterrupted(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// `rename(from, to)`, made again after an interruption; 0, or -1 with `errno` set.
    ///
    /// On a network file system a rename can be carried out and still answer `EINTR`; made again, it
    /// finds no file at `from` (`ENOENT`). So after an interruption, a missing `from` with a file at `to`
    /// is the rename done (`from` is a name only its writer uses: a temporary file beside `to`).
    package static func rename(_ from: String, _ to: String) -> Int32 {
        var interrupted = false
        while true {
            #if canImport(Glibc)
            let result = Glibc.rename(from, to)
            #elseif canImport(Musl)
            let result = Musl.rename(from, to)
            #else
            let result = Darwin.rename(from, to)
            #endif
            if result == 0 { return 0 }
            let code = errno
            if code == EINTR {
                interrupted = true
                continue
            }
            if code == ENOENT, interrupted, access(from, F_OK) != 0, access(to, F_OK) == 0 { return 0 }
            errno = code
            return -1
        }
    }

    /// `unlink(path)`, made again after an interruption; 0 when the file is gone (or was never there),
    /// or -1 with `errno` set.
    package static func unlink(_ path: String) -> Int32 {
        let result = uninterrupted {
            #if canImport(Glibc)
            Glibc.unlink(path)
            #elseif canImport(Musl)
            Musl.unlink(path)
            #else
            Darwin.unlink(path)
            #endif
        }
        return result == 0 || errno == ENOENT ? 0 : -1
    }
}
