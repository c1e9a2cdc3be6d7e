#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The journal's files in a directory, through POSIX calls: `write` (short writes returned as such),
/// `fsync`, `ftruncate`, `rename`, `unlink`, and `flock` on `DIR/lock`, each made again when a signal
/// interrupts it (``SystemCall``).
final class FileJournalStorage: JournalStorage, @unchecked Sendable {
    let directory: URL
    private let handles = Locked<[String: Int32]>([:])
    /// Descriptors let go of by `reopen`, closed with the rest.
    private let retired = Locked<[Int32]>([])
    /// Files opened by this process whose names it has not yet made durable with the directory's `fsync`:
    /// a new file's, and an old one's that a process killed before its `sync` may have left only in the
    /// system's cache. The first `sync` of each file syncs the directory as well, and fails if that fails.
    private let namesToMakeDurable = Locked<Set<String>>([])
    private var lockDescriptor: Int32 = -1
    private var directoryLockDescriptor: Int32 = -1
    private let lockState = NSLock()

    /// The directory's path with a `/` after it: a file's path is this and its name (the journal's names are
    /// plain file names), without a URL made per call.
    private let directoryPrefix: String

    init(directory: URL) {
        self.directory = directory
        let path = directory.path
        directoryPrefix = path.hasSuffix("/") ? path : path + "/"
    }

    var location: String { directory.path }

    func path(_ name: String) -> String { directoryPrefix + name }

    func exists() -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    func lock(exclusive: Bool) throws(JournalStorageError) {
        let path = path("lock")
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        let fd: Int32
        if exclusive {
            try Self.makeDirectory(directory.path)
            fd = Self.openFile(path, O_RDWR | O_CREAT | O_CLOEXEC)
        } else {
            // A read-only look creates nothing: without a lock file no tracker has the directory open.
            fd = Self.openFile(path, O_RDONLY | O_CLOEXEC)
            if fd < 0, errno == ENOENT { return try lockDirectory(operation) }
        }
        guard fd >= 0 else { throw Self.failure("open", path) }
        guard SystemCall.uninterrupted({ flock(fd, operation) }) == 0 else {
            let code = errno
            closeDescriptor(fd)
            // Only a lock another process holds is "in use". A file system that cannot lock (`ENOLCK` on a
            // network file system without its lock service) was reported as in use too, and an operator
            // told so, with no other process running, would take the lock file for a stale one.
            if code == EWOULDBLOCK { throw .inUse(directory.path) }
            errno = code
            var error = Self.failure("lock", path)
            error.description += " (the journal needs a file system that can lock its files, for one tracker at a time)"
            throw error
        }
        do throws(JournalStorageError) { try lockDirectory(operation) } catch {
            closeDescriptor(fd)
            throw error
        }
        lockState.withLock { lockDescriptor = fd }
    }

    /// Locks the directory itself as well: a lock file deleted while a tracker holds it (taken for a stale
    /// one by an operator told the journal is in use, or removed by a cleaner of empty files) would let a
    /// second tracker lock a new file and write the same segments. Where the file system cannot lock a
    /// directory (some network file systems), the lock file alone stands; a directory that cannot be
    /// opened (an I/O error, a process out of descriptors) is the journal's failure, said with the
    /// system's words (it was passed over in silence, and the lock with it).
    private func lockDirectory(_ operation: Int32) throws(JournalStorageError) {
        let fd = Self.openFile(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure("open", directory.path) }
        guard SystemCall.uninterrupted({ flock(fd, operation) }) == 0 else {
            let code = errno
            closeDescriptor(fd)
            if code == EWOULDBLOCK { throw .inUse(directory.path) }
            return
        }
        lockState.withLock { directoryLockDescriptor = fd }
    }

    /// The directory's file names, through `opendir` and `readdir`: a failure says the system's reason
    /// (`Too many open files`, `Permission denied`), where Foundation's said only "NSCocoaErrorDomain error 256".
    func list() throws(JournalStorageError) -> [String] {
        var opened = opendir(directory.path)
        while opened == nil, errno == EINTR { opened = opendir(directory.path) }
        guard let stream = opened else { throw Self.failure("list", directory.path) }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw Self.failure("list", directory.path) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
    }

    /// Creates the directory at `path` and any missing parents (as `mkdir -p`), saying the system's reason
    /// when it cannot (`Not a directory`, `Read-only file system`, `File name too long`); Foundation's
    /// messages were "NSCocoaErrorDomain error 512" or a wrong one ("You don't have permission" for a
    /// read-only file system).
    static func makeDirectory(_ path: String, for target: String? = nil) throws(JournalStorageError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw JournalStorageError(kind: .failed, description: "cannot create \(target ?? path): \(path) is a file, not a directory")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent, for: target ?? path) }
        guard SystemCall.uninterrupted({ mkdir(path, 0o755) }) == 0 || errno == EEXIST else { throw failure("create", path) }
    }

    func size(_ name: String) throws(JournalStorageError) -> Int? {
        var info = stat()
        guard SystemCall.uninterrupted({ stat(path(name), &info) }) == 0 else {
            if errno == ENOENT { return nil }
            throw Self.failure("stat", path(name))
        }
        return Int(info.st_size)
    }

    /// An open descriptor for the file; `create` makes it (and syncs the directory so its name is durable).
    private func handle(_ name: String, create: Bool) throws(JournalStorageError) -> Int32 {
        if let fd = handles.withLock({ $0[name] }) { return fd }
        let path = path(name)
        var fd = Self.openFile(path, O_RDWR | O_APPEND | O_CLOEXEC)
        if fd < 0, errno == ENOENT, create {
            fd = Self.openFile(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC)
        }
        guard fd >= 0 else { throw Self.failure("open", path) }
        // From here the descriptor's offset follows the journal's own writes (see `changedUnderfoot`).
        lseek(fd, 0, SEEK_END)
        return handles.withLock { open in
            if let existing = open[name] { closeDescriptor(fd); return existing }
            open[name] = fd
            namesToMakeDurable.withLock { _ = $0.insert(name) }
            return fd
        }
    }

    func read(_ name: String, offset: Int, count: Int) throws(JournalStorageError) -> [UInt8] {
        guard count > 0 else { return [] }
        let fd = try handle(name, create: false)
        // Read into room left as the allocator gives it: zeroing it first cost a byte's store for every
        // byte asked for (a sender's window, whatever the file holds), only to be overwritten.
        var failure: JournalStorageError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { room, initialized in
            var done = 0
            while done < count {
                let got = pread(fd, room.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = Self.failure("read", path(name))
                    break
                }
                if got == 0 { break }
                done += got
            }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
    }

    func append(_ name: String, _ bytes: ArraySlice<UInt8>) throws(JournalStorageError) -> Int {
        let fd = try handle(name, create: true)
        // With O_APPEND the bytes would go to the file's end wherever that now is.
        if let changed = changedUnderfoot(fd, name, doing: "write \(path(name))") { throw changed }
        return try Self.writeAll(bytes, to: fd, path: path(name))
    }

    /// Writes `bytes` to `fd` (at `offset` with `pwrite` when given, else where the descriptor stands),
    /// going on after a write interrupted by a signal or one that took part of the bytes; how many were
    /// written (fewer only when a write took none). Throws the error of a failed write.
    private static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32, at offset: Int? = nil,
                                 path: String) throws(JournalStorageError) -> Int {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                let start = buffer.baseAddress! + done
                return offset.map { pwrite(fd, start, bytes.count - done, off_t($0 + done)) } ?? write(fd, start, bytes.count - done)
            }
            if wrote < 0 {
                if errno == EINTR { continue }
                throw failure("write", path)
            }
            if wrote == 0 { break }
            done += wrote
        }
        return done
    }

    func sync(_ name: String) throws(JournalStorageError) {
        let fd = try handle(name, create: false)
        guard SystemCall.uninterrupted({ fsync(fd) }) == 0 else { throw Self.failure("fsync", path(name)) }
        // A file deleted or replaced under the journal (its folder removed by hand or by a cleaner of old
        // files) still takes writes through the open descriptor, and `fsync` succeeds, but nothing written
        // to it survives the process: its sync makes nothing durable, and says so.
        guard Self.isStillNamed(fd, path(name)) else {
            throw JournalStorageError(kind: .changed, description: "cannot make \(path(name)) durable: the file was deleted or replaced "
                                      + "while in use, so nothing written to it since survives this process")
        }
        if let changed = changedUnderfoot(fd, name, doing: "make \(path(name)) durable") { throw changed }
        if namesToMakeDurable.withLock({ $0.contains(name) }) { try syncDirectory(for: name) }
    }

    /// The error to give when the file open as `fd` is no longer as long as the journal's own writes left
    /// it (the descriptor's offset: each append leaves it at the end it wrote, a truncate sets it). A file
    /// truncated under the journal (`: > file`, a log rotation that copies and truncates) lost records
    /// already acknowledged, and an append would land them at offsets their frames do not name; one written
    /// to by another process holds bytes the journal did not frame.
    private func changedUnderfoot(_ fd: Int32, _ name: String, doing action: String) -> JournalStorageError? {
        var info = stat()
        let written = lseek(fd, 0, SEEK_CUR)
        guard written >= 0, fstat(fd, &info) == 0, info.st_size != written else { return nil }
        let change = info.st_size < written ? "truncated" : "wrote to"
        return JournalStorageError(kind: .changed, description: "cannot \(action): it is \(info.st_size) bytes long where the journal "
                                   + "left it at \(written); another process \(change) it while in use, so records in it may be lost "
                                   + "(reported as damage when read)")
    }

    /// Whether the file open as `fd` is still the one at `path` (same device and inode).
    private static func isStillNamed(_ fd: Int32, _ path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    func truncate(_ name: String, to size: Int) throws(JournalStorageError) {
        let fd = try handle(name, create: false)
        guard SystemCall.uninterrupted({ ftruncate(fd, off_t(size)) }) == 0 else { throw Self.failure("truncate", path(name)) }
        lseek(fd, off_t(size), SEEK_SET)
        guard SystemCall.uninterrupted({ fsync(fd) }) == 0 else { throw Self.failure("fsync", path(name)) }
    }

    func replace(_ name: String, with bytes: [UInt8], durable: Bool) throws(JournalStorageError) {
        let temporary = path(name + ".new")
        let fd = Self.openFile(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure("open", temporary) }
        defer { closeDescriptor(fd) }
        do throws(JournalStorageError) {
            guard try Self.writeAll(bytes[...], to: fd, path: temporary) == bytes.count else {
                throw JournalStorageError(kind: .noSpace, description: "cannot write \(temporary): short write")
            }
        } catch {
            _ = SystemCall.unlink(temporary)
            throw error
        }
        if durable { guard SystemCall.uninterrupted({ fsync(fd) }) == 0 else { throw Self.failure("fsync", temporary) } }
        guard SystemCall.rename(temporary, path(name)) == 0 else { throw Self.failure("rename", temporary) }
        // The old file's descriptor (if one was open) now names the replaced file.
        if let old = handles.withLock({ $0.removeValue(forKey: name) }) { closeDescriptor(old) }
        if durable { try syncDirectory(for: name) }
    }

    /// One `pwrite` at offset 0 through a descriptor of its own (the cached ones append). A file grown
    /// to more than twice what it now needs, and past a page, is replaced instead, so that it shrinks.
    func overwrite(_ name: String, with bytes: [UInt8], padding: UInt8) throws(JournalStorageError) {
        let path = path(name)
        let fd = Self.openFile(path, O_WRONLY | O_CREAT | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure("open", path) }
        defer { closeDescriptor(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.failure("stat", path) }
        let size = Int(info.st_size)
        if size > 4096, size > 2 * bytes.count { return try replace(name, with: bytes, durable: false) }
        let whole = size > bytes.count ? bytes + repeatElement(padding, count: size - bytes.count) : bytes
        guard try Self.writeAll(whole[...], to: fd, at: 0, path: path) == whole.count else {
            throw JournalStorageError(kind: .noSpace, description: "cannot write \(path): short write")
        }
    }

    func reopen(_ name: String) {
        // Kept open until `close()`: a reader on another thread may be using it (it reads what it began
        // with), and a descriptor closed under it could be given to another file.
        guard let fd = handles.withLock({ $0.removeValue(forKey: name) }) else { return }
        retired.withLock { $0.append(fd) }
    }

    func refresh(_ name: String) -> Bool {
        guard let fd = handles.withLock({ $0[name] }), !Self.isStillNamed(fd, path(name)) else { return false }
        reopen(name)
        return true
    }

    func remove(_ name: String) throws(JournalStorageError) {
        if let fd = handles.withLock({ $0.removeValue(forKey: name) }) { closeDescriptor(fd) }
        namesToMakeDurable.withLock { _ = $0.remove(name) }
        guard SystemCall.unlink(path(name)) == 0 else { throw Self.failure("unlink", path(name)) }
    }

    /// Makes the names of the directory's files durable (a file's `fsync` does not cover its directory
    /// entry): `name`'s, and every other name opened before. A failure is the file's: a record in a file
    /// whose name is lost with the power is lost too, however often the file itself was synced. (This was
    /// a best effort that said nothing: a process out of file descriptors, as a server under load is, or
    /// a disk failing the directory's `fsync`, acknowledged records in a new segment a power loss could
    /// take whole.)
    private func syncDirectory(for name: String) throws(JournalStorageError) {
        let waiting = namesToMakeDurable.withLock { $0 }
        let fd = Self.openFile(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure("open", directory.path, making: path(name)) }
        defer { closeDescriptor(fd) }
        guard SystemCall.uninterrupted({ fsync(fd) }) == 0 else { throw Self.failure("fsync", directory.path, making: path(name)) }
        namesToMakeDurable.withLock { $0.subtract(waiting) }
    }

    func close() {
        for fd in handles.withLock({ open -> [Int32] in defer { open.removeAll() }; return Array(open.values) })
            + retired.withLock({ list -> [Int32] in defer { list.removeAll() }; return list }) {
            closeDescriptor(fd)
        }
        lockState.withLock {
            for fd in [lockDescriptor, directoryLockDescriptor] where fd >= 0 {
                // Unlock before closing: a child forked by another thread may still share this descriptor
                // until its exec, and the lock would outlive our close (a flaky "in use by another process").
                _ = flock(fd, LOCK_UN)
                closeDescriptor(fd)
            }
            lockDescriptor = -1
            directoryLockDescriptor = -1
        }
    }

    private static func openFile(_ path: String, _ flags: Int32) -> Int32 {
        SystemCall.uninterrupted {
            #if canImport(Glibc)
            Glibc.open(path, flags, 0o644)
            #else
            Darwin.open(path, flags, 0o644)
            #endif
        }
    }

    /// The error of a call that just failed, with the system's reason (`errno`); `making`: the file whose
    /// name the call was to make durable.
    private static func failure(_ call: String, _ path: String, making file: String? = nil) -> JournalStorageError {
        let code = errno
        let kind: JournalStorageError.Kind = code == ENOSPC || code == EDQUOT ? .noSpace : .failed
        let purpose = file.map { "cannot make the name of \($0) durable: " } ?? ""
        return JournalStorageError(kind: kind, description: "\(purpose)cannot \(call) \(path): \(String(cString: strerror(code)))")
    }
}

func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
