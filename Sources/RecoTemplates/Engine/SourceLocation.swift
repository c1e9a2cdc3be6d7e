/// A place in a template's text: the template's name, 1-based line and column.
struct SourceLocation: Hashable, Sendable {
    let template: String
    let line: Int
    let column: Int
}

/// A template's text as UTF-8 bytes, with its name, for the parser and its error messages.
struct SourceText {
    let name: String
    let bytes: [UInt8]

    init(_ text: String, name: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }

    /// The line and column of a byte offset (columns count characters, not bytes).
    func location(of offset: Int) -> SourceLocation {
        var line = 1
        var lineStart = 0
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return SourceLocation(template: name, line: line, column: column)
    }

    /// The text of a byte range.
    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}
