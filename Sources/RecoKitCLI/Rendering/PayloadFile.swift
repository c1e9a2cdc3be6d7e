import Foundation
import RecoKit
import RecoVendors

/// A payload file read from disk and decoded by whichever vendor's format it is in.
struct PayloadFile {
    /// The path as given.
    let path: String
    /// The file name without `.json`.
    var name: String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }

    /// Reads and decodes the file.
    /// - Throws: ``PayloadError`` naming the file: unreadable, invalid JSON with line and column, a
    ///   vendor's error reply, or a document that is no recommendation reply.
    func decode() throws(PayloadError) -> Recommendations<RawProduct> {
        try decode(read())
    }

    /// The file's bytes (standard input for `-`).
    /// - Throws: ``PayloadError`` `unreadable`, naming the file.
    func read() throws(PayloadError) -> Data {
        do {
            return try path == "-" ? FileHandle.standardInput.readToEnd() ?? Data() : Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PayloadError.unreadable(file: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Decodes bytes read from this file.
    /// - Throws: ``PayloadError`` naming the file.
    func decode(_ data: Data) throws(PayloadError) -> Recommendations<RawProduct> {
        do {
            return try VendorPayloads.decode(data)
        } catch {
            throw error.inFile(path)
        }
    }
}
