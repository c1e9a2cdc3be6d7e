import Foundation
import RecoTracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RecoRelay

/// A file the command line writes whole or not at all: `render -o FILE`, the preview's pages and its
/// index. The bytes go to a new file beside it, made durable, then renamed over it; a disk full for a
/// moment, an I/O error or a kill leaves the file as it was (the last preview a browser or a server
/// shows stays whole) and no temporary file behind. (A device, a pipe, a socket or a descriptor given
/// as the file is written to as it is.)
///
/// ```swift
/// try ReplacedFile.write(Data(html.utf8), to: URL(fileURLWithPath: "preview/index.html"))
/// ```
enum ReplacedFile {
    /// Why a file could not be written: its path and the system's words (`no space left on device`).
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write \(path): \(reason)" }

        /// The failure of a call on `path` that set `code` (`errno`), in the system's words, after `step`.
        init(_ path: String, code: Int32, step: String = "") {
            let words = FileProblem.reason(POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
            self.path = path
            reason = step.isEmpty ? words : "\(step): \(words)"
        }
    }

    /// Writes `bytes` as the file at `url` (through a symbolic link, to where it points), keeping the
    /// mode of the file it replaces.
    /// - Throws: ``Failure``, the file left as it was.
    static func write(_ bytes: Data, to url: URL) throws(Failure) {
        let path = url.path
        // A device, a pipe or a socket (`-o /dev/null`, a named pipe), and a descriptor named by its path
        // (`-o /dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`), are written to as they are, as a shell's `>`
        // would: replacing one put a regular file where it stood (as root, in place of /dev/null itself),
        // and `/dev/stdout` could not be written at all.
        var info = stat()
        let isDescriptor = descriptorPaths.contains { path.hasPrefix($0) }
        if isDescriptor || (stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR) {
            try writeInPlace(bytes, to: path)
            return
        }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
            $0.hasPrefix("/") ? $0 : url.deletingLastPathComponent().appendingPathComponent($0).path
        } ?? path
        let place = URL(fileURLWithPath: target)
        let temporary = place.deletingLastPathComponent().appendingPathComponent(".\(place.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        func failure(_ code: Int32, _ step: String = "") -> Failure { Failure(path, code: code, step: step) }
        var existing = stat()
        let mode = stat(target, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG ? mode_t(existing.st_mode & 0o7777) : 0o666
        // Each call is made again when a signal interrupts it (SystemCall): that says nothing of the disk.
        let descriptor = SystemCall.uninterrupted { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
        guard descriptor >= 0 else { throw failure(errno) }
        var code: Int32 = 0
        if mode != 0o666, SystemCall.uninterrupted({ fchmod(descriptor, mode) }) != 0 { code = errno }  // as it was, whatever the umask
        if code == 0 { code = StandardStreams.write(bytes, to: descriptor) ?? 0 }
        if code == 0, SystemCall.uninterrupted({ fsync(descriptor) }) != 0 { code = errno }
        // A close interrupted has closed the descriptor all the same (Linux): not made again.
        if close(descriptor) != 0, code == 0, errno != EINTR { code = errno }
        if code == 0, SystemCall.rename(temporary, target) != 0 {
            let renameCode = errno
            _ = SystemCall.unlink(temporary)
            throw failure(renameCode, "cannot put it in place")
        }
        if code != 0 {
            _ = SystemCall.unlink(temporary)
            throw failure(code)
        }
    }

    /// Paths that name a descriptor of the process (its file, whatever that is, is written to as it is).
    #if os(Linux)
    private static let descriptorPaths = ["/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/"]
    #else
    private static let descriptorPaths = ["/dev/stdout", "/dev/stderr", "/dev/fd/"]
    #endif

    /// Writes `bytes` to what `path` names (a device, a pipe, a socket, a descriptor's file): opened for
    /// writing as a shell's `>` opens it (a regular file behind a descriptor is emptied first).
    private static func writeInPlace(_ bytes: Data, to path: String) throws(Failure) {
        let descriptor = SystemCall.uninterrupted { open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) }
        var code = descriptor >= 0 ? 0 : errno
        if descriptor >= 0 {
            code = StandardStreams.write(bytes, to: descriptor) ?? 0
            close(descriptor)
        }
        guard code == 0 else { throw Failure(path, code: code) }
    }
}
