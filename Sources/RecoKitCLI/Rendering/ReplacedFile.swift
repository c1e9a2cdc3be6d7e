import Foundation
import RecoTracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the command line writes whole or not at all: `render -o FILE`, the preview's pages and its
/// index. The bytes go to a new file beside it, made durable, then renamed over it; a disk full for a
/// moment, an I/O error or a kill leaves the file as it was (the last preview a browser or a server
/// shows stays whole) and no temporary file behind.
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
    }

    /// Writes `bytes` as the file at `url` (through a symbolic link, to where it points), keeping the
    /// mode of the file it replaces.
    /// - Throws: ``Failure``, the file left as it was.
    static func write(_ bytes: Data, to url: URL) throws(Failure) {
        let path = url.path
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
            $0.hasPrefix("/") ? $0 : url.deletingLastPathComponent().appendingPathComponent($0).path
        } ?? path
        let place = URL(fileURLWithPath: target)
        let temporary = place.deletingLastPathComponent().appendingPathComponent(".\(place.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        func failure(_ code: Int32, _ step: String = "") -> Failure {
            let words = FileProblem.reason(POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
            return Failure(path: path, reason: step.isEmpty ? words : "\(step): \(words)")
        }
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
}
