import Foundation

/// A template file's text, as a ``TemplateLibrary`` reads a folder: a regular file (a device or a pipe
/// named `*.mustache` would be read without end, or wait for a writer), at most
/// ``TemplateLibrary/largestFileBytes``, and UTF-8 (the first byte that is not is named by its line and
/// column). Foundation's words for these were wrong or empty: "You don't have permission" for
/// `/dev/zero` or a pipe, "The file isn't in the correct format" for a byte that is not UTF-8.
enum TemplateFile {
    static func text(of url: URL, name: String) throws(TemplateError) -> String {
        let path = url.path
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        guard let attributes else { throw .unreadable(path, reason: "the file cannot be found or its folder cannot be read") }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .unreadable(path, reason: "not a regular file (a device, a pipe, a socket or a link that leads nowhere); a template is a text file")
        }
        let limit = TemplateLibrary.largestFileBytes
        if let size = attributes[.size] as? Int, size > limit {
            throw .unreadable(path, reason: "the file has \(size) bytes, more than \(limit) (TemplateLibrary.largestFileBytes)")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // One byte more than allowed tells a file that grew past the limit since its size was read.
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw .unreadable(path, reason: error.localizedDescription)
        }
        guard data.count <= limit else { throw .unreadable(path, reason: "the file has more than \(limit) bytes (TemplateLibrary.largestFileBytes)") }
        if let text = String(data: data, encoding: .utf8) { return text }
        throw notUTF8([UInt8](data), name: name, file: path)
    }

    /// The error for the first byte of `bytes` that is not UTF-8, with its line and column (in characters).
    private static func notUTF8(_ bytes: [UInt8], name: String, file: String) -> TemplateError {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        parsing: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput, .error: break parsing
            }
        }
        offset = min(offset, bytes.count - 1)
        let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return .notUTF8(byte: bytes[offset], template: name, file: file, line: line, column: column)
    }
}
