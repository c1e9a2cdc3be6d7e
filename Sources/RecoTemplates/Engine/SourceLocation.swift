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
    /// Where the last location asked for was: the compiler asks in order, for every partial and parent,
    /// and counting from the start each time was quadratic (28,000 partials in 200 KB: 13 s to compile).
    private let last = LocationCursor()

    init(_ text: String, name: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }

    /// The line and column of a byte offset (columns count characters, not bytes).
    func location(of offset: Int) -> SourceLocation {
        let end = min(offset, bytes.count)
        // Go on from the last place when it lies before this one and no character straddles it: between two
        // ASCII bytes other than a carriage return and a line feed, a character always ends (a byte after a
        // non-ASCII one may belong to its character: a prepended mark, say).
        var from = (offset: 0, line: 1, column: 1)
        if let known = last.place, known.offset <= end, known.offset > 0, known.offset < bytes.count,
           bytes[known.offset] < 0x80, bytes[known.offset - 1] < 0x80,
           !(bytes[known.offset - 1] == 0x0D && bytes[known.offset] == 0x0A) {
            from = known
        }
        var line = from.line
        var counted = from.offset  // characters are counted from here to `end` on the last line
        var index = from.offset
        while index < end {
            if bytes[index] == 0x0A {
                line += 1
                counted = index + 1
            }
            index += 1
        }
        let column = (line == from.line ? from.column : 1)
            + String(decoding: bytes[counted..<end], as: UTF8.self).count
        last.place = (end, line, column)
        return SourceLocation(template: name, line: line, column: column)
    }

    /// The text of a byte range.
    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}

/// The place `SourceText.location(of:)` found last (a compile runs on one thread; the text is not shared).
private final class LocationCursor {
    var place: (offset: Int, line: Int, column: Int)?
}
