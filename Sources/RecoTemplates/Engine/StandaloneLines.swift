/// Finds the lines that hold only standalone tags (sections, comments, partials, set-delimiters…) and
/// whitespace, and removes them from the output, as Mustache says.
///
/// A line normally holds one such tag. Inheritance tags may pair up on one line (`{{<parent}}{{/parent}}`,
/// `{{<parent}}{{$block}}`, `{{/block}}{{/parent}}`); a block opened and closed on one line
/// (`  {{$block}}{{/block}}`) keeps its line ending, so that the content put there stays on its own line.
enum StandaloneLines {
    static func mark(_ tokens: inout [Token], in source: SourceText) {
        var lineStart = 0
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let endsLine = token.kind == .text && source.bytes[token.end - 1] == 0x0A
            if endsLine || index == tokens.count - 1 {
                markLine(&tokens, lineStart..<(index + 1), in: source)
                lineStart = index + 1
            }
            index += 1
        }
    }

    private static func markLine(_ tokens: inout [Token], _ line: Range<Int>, in source: SourceText) {
        var tags: [Int] = []
        for index in line {
            let token = tokens[index]
            if token.kind == .text {
                if !isBlank(token, in: source) { return }
            } else {
                guard token.kind.canStandAlone else { return }
                tags.append(index)
            }
        }
        guard let first = tags.first else { return }
        var keepsLineEnding = false
        if tags.count == 2 {
            let second = tags[1]
            guard second == first + 1, isInheritance(tokens[first], tokens), isInheritance(tokens[second], tokens) else { return }
            keepsLineEnding = tokens[first].kind == .block && tokens[first].partner == second
        } else if tags.count > 2 {
            return
        }
        var indentation = ""
        if first > line.lowerBound { indentation = source.text(tokens[line.lowerBound].start..<tokens[first].start) }
        for index in tags {
            tokens[index].isStandalone = true
            tokens[index].indentation = indentation
        }
        for index in line where tokens[index].kind == .text {
            if keepsLineEnding, index == line.upperBound - 1, index > tags[1] {
                keepLineEnding(&tokens[index], in: source)
            } else {
                tokens[index].isRemoved = true
            }
        }
    }

    private static func isInheritance(_ token: Token, _ tokens: [Token]) -> Bool {
        switch token.kind {
        case .parent, .block: true
        case .close: tokens[token.partner].kind == .parent || tokens[token.partner].kind == .block
        default: false
        }
    }

    private static func isBlank(_ token: Token, in source: SourceText) -> Bool {
        for index in token.start..<token.end {
            let byte = source.bytes[index]
            if byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return false }
        }
        return true
    }

    /// Narrows a trailing whitespace run to its line ending (`\n` or `\r\n`), or removes it at the end of the text.
    private static func keepLineEnding(_ token: inout Token, in source: SourceText) {
        guard source.bytes[token.end - 1] == 0x0A else {
            token.isRemoved = true
            return
        }
        var start = token.end - 1
        if start > token.start, source.bytes[start - 1] == 0x0D { start -= 1 }
        token.start = start
    }
}
