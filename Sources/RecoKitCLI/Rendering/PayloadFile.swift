import Foundation
import RecoKit
import RecoVendors

/// A payload file read from disk and decoded by whichever vendor's format it is in.
struct PayloadFile {
    /// The path as given.
    let path: String
    /// The name used in messages (`<stdin>` for `-`).
    var displayName: String { path == "-" ? "<stdin>" : path }
    /// The file name without `.json`.
    var name: String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }

    /// Reads and decodes the file.
    /// - Throws: ``PayloadError`` naming the file: unreadable, invalid JSON with line and column, a
    ///   vendor's error reply, or a document that is no recommendation reply.
    func decode(language: String? = nil, variantId: RetenoVariantId? = nil, title: String = "", limits: ReplyLimits = .default) throws(PayloadError) -> Recommendations<RawProduct> {
        try decode(parse(limits: limits.json), language: language, variantId: variantId, title: title, limits: limits)
    }

    /// Reads the file and parses it once, in place (see `PayloadDocument`).
    /// - Throws: ``PayloadError`` naming the file: unreadable, or invalid JSON with line and column.
    func parse(limits: JSONLimits = .default) throws(PayloadError) -> PayloadDocument {
        let data = try read()
        do {
            return try PayloadDocument(parsing: data, limits: limits)
        } catch {
            throw error.inFile(displayName)
        }
    }

    /// The file's bytes (standard input for `-`).
    /// - Throws: ``PayloadError`` `unreadable`, naming the file and saying why in the words of
    ///   ``FileProblem`` (the same in every command).
    func read() throws(PayloadError) -> Data {
        if path != "-", let problem = FileProblem.unreadable(path) {
            throw PayloadError.unreadable(file: displayName, reason: problem)
        }
        do {
            return try path == "-" ? FileHandle.standardInput.readToEnd() ?? Data() : Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PayloadError.unreadable(file: displayName, reason: FileProblem.reason(error))
        }
    }

    /// Decodes the recommendations of this file's parsed document.
    /// - Throws: ``PayloadError`` naming the file.
    /// - Parameters: see ``VendorPayloads/decode(_:vendor:language:variantId:title:limits:)``.
    func decode(_ document: PayloadDocument, language: String? = nil, variantId: RetenoVariantId? = nil, title: String = "", limits: ReplyLimits = .default) throws(PayloadError) -> Recommendations<RawProduct> {
        do {
            return try document.decode(language: language, variantId: variantId, title: title, limits: limits)
        } catch {
            throw error.inFile(displayName)
        }
    }
}
