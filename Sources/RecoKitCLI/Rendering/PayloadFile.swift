import Foundation
import RecoKit
import RecoVendors
import RecoRelay

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
        let data = try read(maximumBytes: limits.maximumInputBytes)
        do {
            return try PayloadDocument(parsing: data, limits: limits)
        } catch {
            throw error.inFile(displayName)
        }
    }

    /// The file's bytes (standard input for `-`), no more than `maximumBytes` of them: a larger document is
    /// refused before it is read (a file, by its size) or once that many bytes have come (standard input,
    /// which may never end: `yes | recokit decode -` grew by half a gigabyte a second until the system
    /// killed it), with the JSON limit's error.
    /// - Throws: ``PayloadError`` `unreadable`, naming the file and saying why in the words of
    ///   ``FileProblem`` (the same in every command); `limitExceeded` past `maximumBytes`.
    func read(maximumBytes: Int = JSONLimits.default.maximumInputBytes) throws(PayloadError) -> Data {
        if path != "-", let problem = FileProblem.unreadable(path) {
            throw PayloadError.unreadable(file: displayName, reason: problem)
        }
        let limit = "(JSONLimits.maximumInputBytes)"
        if path != "-", let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumBytes {
            throw PayloadError.limitExceeded("a document of \(size) bytes, more than \(maximumBytes) \(limit)", at: .root, line: 1, column: 1)
                .inFile(displayName)
        }
        // One byte more than allowed tells a document at the limit from one past it.
        var data = Data()
        if path == "-" {
            data = try readStandardInput(upTo: maximumBytes + 1)
        } else {
            do {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                while data.count <= maximumBytes, let chunk = try handle.read(upToCount: min(1 << 20, maximumBytes + 1 - data.count)), !chunk.isEmpty {
                    data.append(chunk)
                }
            } catch {
                throw PayloadError.unreadable(file: displayName, reason: FileProblem.reason(error))
            }
        }
        guard data.count <= maximumBytes else {
            throw PayloadError.limitExceeded("a document of more than \(maximumBytes) bytes \(limit)", at: .root, line: 1, column: 1).inFile(displayName)
        }
        return data
    }

    /// Standard input's bytes, up to `count` of them, read as ``StandardStreams/read(_:into:)`` reads it (a
    /// pipe its opener made non-blocking is waited on: `FileHandle` gave "resource temporarily
    /// unavailable" when the payload had not come yet).
    private func readStandardInput(upTo count: Int) throws(PayloadError) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count < count {
            let wanted = min(chunk.count, count - data.count)
            switch chunk.withUnsafeMutableBytes({ StandardStreams.read(0, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted])) }) {
            case .success(0): return data
            case .success(let got): data.append(contentsOf: chunk[..<got])
            case .failure(let failure): throw PayloadError.unreadable(file: displayName, reason: failure.reason)
            }
        }
        return data
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
