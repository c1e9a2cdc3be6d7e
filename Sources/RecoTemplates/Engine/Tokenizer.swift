/// Splits a template's text into text runs and tags, following set-delimiter tags as it goes.
///
/// Text runs never extend past a newline, so that standalone lines can be found line by line afterwards.
struct Tokenizer {
    let source: SourceText
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)

    init(_ source: SourceText) { self.source = source }

    mutating func tokens() throws(TemplateError) -> [Token] {
        let bytes = source.bytes
        let count = bytes.count
        var tokens: [Token] = []
        tokens.reserveCapacity(count / 12 + 4)
        var index = 0
        var textStart = 0
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A {
                tokens.append(Token(kind: .text, start: textStart, end: index + 1))
                index += 1
                textStart = index
            } else if byte == open[0], matches(open, at: index) {
                if textStart < index { tokens.append(Token(kind: .text, start: textStart, end: index)) }
                let token = try tag(at: index)
                tokens.append(token)
                index = token.end
                textStart = index
            } else {
                index += 1
            }
        }
        if textStart < count { tokens.append(Token(kind: .text, start: textStart, end: count)) }
        return tokens
    }

    private func matches(_ pattern: [UInt8], at index: Int) -> Bool {
        let bytes = source.bytes
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    private func find(_ pattern: [UInt8], from index: Int) -> Int? {
        var position = index
        while position + pattern.count <= source.bytes.count {
            if source.bytes[position] == pattern[0], matches(pattern, at: position) { return position }
            position += 1
        }
        return nil
    }

    private var delimiterText: (open: String, close: String) {
        (String(decoding: open, as: UTF8.self), String(decoding: close, as: UTF8.self))
    }

    private mutating func tag(at start: Int) throws(TemplateError) -> Token {
        let bytes = source.bytes
        let contentStart = start + open.count
        var kind = TokenKind.variable
        var nameStart = contentStart + 1
        var terminator = close
        switch contentStart < bytes.count ? bytes[contentStart] : 0 {
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .inverted
        case UInt8(ascii: "/"): kind = .close
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "<"): kind = .parent
        case UInt8(ascii: "$"): kind = .block
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: "&"): kind = .rawVariable
        case UInt8(ascii: "{"):
            kind = .rawVariable
            terminator = [UInt8(ascii: "}")] + close
        case UInt8(ascii: "="):
            kind = .delimiters
            terminator = [UInt8(ascii: "=")] + close
        default:
            nameStart = contentStart
        }
        let delimiters = delimiterText
        guard nameStart <= bytes.count, let contentEnd = find(terminator, from: nameStart) else {
            let expected = String(decoding: terminator, as: UTF8.self)
            throw .syntax("unclosed tag, expected \"\(expected)\"", at: source.location(of: start))
        }
        var token = Token(kind: kind, start: start, end: contentEnd + terminator.count, delimiters: delimiters)
        let content = trimmed(nameStart..<contentEnd)
        switch kind {
        case .comment:
            return token
        case .delimiters:
            try setDelimiters(content, tagStart: start)
            return token
        case .partial where content.first == UInt8(ascii: "*"):
            token.isDynamic = true
            token.name = String(decoding: trimmed(content.dropFirst()), as: UTF8.self)
        default:
            token.name = String(decoding: content, as: UTF8.self)
        }
        try checkName(token, at: start)
        return token
    }

    private func trimmed(_ range: Range<Int>) -> ArraySlice<UInt8> { trimmed(source.bytes[range]) }

    private func trimmed(_ slice: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = slice
        while let first = slice.first, Self.isWhitespace(first) { slice.removeFirst() }
        while let last = slice.last, Self.isWhitespace(last) { slice.removeLast() }
        return slice
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private func checkName(_ token: Token, at start: Int) throws(TemplateError) {
        let tag = source.text(token.start..<token.end)
        if token.name.isEmpty {
            throw .syntax("empty tag \(tag), expected a name", at: source.location(of: start))
        }
        if token.name.utf8.contains(where: Self.isWhitespace) {
            throw .syntax("invalid name in \(tag), expected a name without spaces", at: source.location(of: start))
        }
        if token.name != ".", token.name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw .syntax("invalid name in \(tag), expected names separated by single dots", at: source.location(of: start))
        }
    }

    private mutating func setDelimiters(_ content: ArraySlice<UInt8>, tagStart: Int) throws(TemplateError) {
        let parts = content.split(whereSeparator: Self.isWhitespace)
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
            let written = String(decoding: content, as: UTF8.self)
            throw .syntax(
                "bad delimiter \"\(written)\", expected two delimiters without '=' separated by a space, like {{=<% %>=}}",
                at: source.location(of: tagStart))
        }
        open = Array(parts[0])
        close = Array(parts[1])
    }
}
