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
        let data: Data
        do {
            data = try path == "-" ? FileHandle.standardInput.readToEnd() ?? Data() : Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PayloadError.unreadable(file: path, reason: (error as NSError).localizedDescription)
        }
        do {
            return try Self.decode(data)
        } catch {
            throw error.inFile(path)
        }
    }

    private static func decode(_ data: Data) throws(PayloadError) -> Recommendations<RawProduct> {
        try VendorPayloads.decode(data)
    }
}
