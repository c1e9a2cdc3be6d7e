import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What went wrong with a file or folder, in plain words, for the command line's error lines.
///
/// Foundation's errors print as `The operation could not be completed. (NSCocoaErrorDomain error 256.)`
/// or `Error Domain=NSCocoaErrorDomain Code=516 … UserInfo={…}`; a user needs "no such file" or "it is
/// a folder". Every command words the same problem the same way: each reason here is used by all.
package enum FileProblem {
    /// The path does not exist.
    package static let noSuchFile = "no such file"
    /// A folder was given where a file is read or written.
    package static let isFolder = "it is a folder, not a file"
    /// A file was given where a folder is written.
    package static let isFile = "it is a file, not a folder"
    /// The process may not read or write it.
    package static let permissionDenied = "permission denied"

    /// Why the file at `path` cannot be read, found before reading it, or nil when it looks readable.
    package static func unreadable(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return noSuchFile }
        if isDirectory.boolValue { return isFolder }
        if !FileManager.default.isReadableFile(atPath: path) { return permissionDenied }
        return nil
    }

    /// Why a file cannot be written at `path`, found before writing it, or nil when it looks writable.
    package static func unwritableFile(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return isFolder }
            return FileManager.default.isWritableFile(atPath: path) ? nil : permissionDenied
        }
        return missingParent(path)
    }

    /// Why a folder cannot be written at `path`, found before writing into it, or nil.
    package static func unwritableFolder(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { return isFile }
            return FileManager.default.isWritableFile(atPath: path) ? nil : permissionDenied
        }
        return nil  // created with its parents
    }

    /// "no such folder: …" when the folder that would hold `path` is missing or is a file.
    private static func missingParent(_ path: String) -> String? {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) else { return "no such folder: \(parent)" }
        return isDirectory.boolValue ? nil : "\(parent) is a file, not a folder"
    }

    /// Any error from Foundation's file APIs, in plain words: the POSIX reason when there is one
    /// (`no space left on device`), otherwise a short phrase for Foundation's own code. Never the
    /// error domain, code number or user-info dictionary.
    package static func reason(_ error: any Error) -> String {
        let original = error
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain else { return "\(original)" }
        if let posix = posixCode(error) {
            switch posix {
            case ENOENT: return noSuchFile
            case EISDIR: return isFolder
            case ENOTDIR: return "a part of the path is a file, not a folder"
            case EACCES, EPERM: return permissionDenied
            case EEXIST: return "a file of that name is in the way"
            default: return String(cString: strerror(posix)).lowercased()
            }
        }
        switch error.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return noSuchFile
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return permissionDenied
        case NSFileWriteFileExistsError: return "a file of that name is in the way"
        case NSFileWriteOutOfSpaceError: return "the disk is full"
        case NSFileWriteVolumeReadOnlyError: return "the disk is read-only"
        case NSFileReadCorruptFileError, NSFileReadInapplicableStringEncodingError: return "it is not UTF-8 text"
        case NSFileReadUnknownError: return "it could not be read"
        case NSFileWriteUnknownError: return "it could not be written"
        default: return "it could not be read or written"
        }
    }

    /// The POSIX error under a Foundation error, when it carries one.
    private static func posixCode(_ error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return posixCode(underlying) }
        return nil
    }
}
