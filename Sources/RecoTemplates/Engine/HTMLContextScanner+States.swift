/// The scanner's states, one byte at a time: a small reading of the HTML tokenizer (tags, attributes quoted
/// and unquoted, comments, and the raw text of `<script>`, `<style>`, `<textarea>` and `<title>`).
extension HTMLContextScanner {
    /// How much of a tag's or an attribute's name is kept: more than any name the table knows, so a longer
    /// name, cut, still matches none (and one beginning with `on` still begins with it), while the cost of
    /// reading a template stays linear in its length.
    static let nameBytesKept = 64

    /// Moves to the next state for one byte of static text at `offset` in the template.
    mutating func step(_ byte: UInt8, at offset: Int) {
        switch state {
        case .data:
            if byte == UInt8(ascii: "<") { state = .markupOpen }
        case .markupOpen:
            if Self.isLetter(byte) {
                tagName = [Self.lower(byte)]
                tag = HTMLTagFacts()
                state = .tagName
            } else if byte == UInt8(ascii: "/") {
                tagName = []
                state = .endTagName
            } else if byte == UInt8(ascii: "!") {
                dashes = 0
                state = .markupDeclaration
            } else if byte == UInt8(ascii: "?") {
                state = .bogusComment
            } else {
                state = byte == UInt8(ascii: "<") ? .markupOpen : .data
            }
        case .markupDeclaration:
            if byte == UInt8(ascii: "-") {
                dashes += 1
                if dashes == 2 {
                    dashes = 0
                    state = .comment
                }
            } else {
                state = byte == UInt8(ascii: ">") ? .data : .bogusComment
            }
        case .comment:
            if byte == UInt8(ascii: "-") {
                dashes += 1
            } else {
                if byte == UInt8(ascii: ">"), dashes >= 2 { state = .data }
                dashes = 0
            }
        case .bogusComment:
            if byte == UInt8(ascii: ">") { state = .data }
        case .tagName, .endTagName:
            if Self.isSpace(byte) || byte == UInt8(ascii: "/") {
                state = state == .endTagName ? .endTagName : .beforeAttributeName
                if state == .endTagName, Self.isSpace(byte) { state = .bogusComment }
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else {
                if tagName.count < Self.nameBytesKept { tagName.append(Self.lower(byte)) }
            }
        case .beforeAttributeName:
            if byte == UInt8(ascii: ">") {
                endTag()
            } else if !Self.isSpace(byte), byte != UInt8(ascii: "/") {
                attributeName = [Self.lower(byte)]
                state = .attributeName
            }
        case .attributeName:
            if byte == UInt8(ascii: "=") {
                state = .beforeAttributeValue
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else if Self.isSpace(byte) {
                state = .afterAttributeName
            } else if byte == UInt8(ascii: "/") {
                state = .beforeAttributeName
            } else {
                if attributeName.count < Self.nameBytesKept { attributeName.append(Self.lower(byte)) }
            }
        case .afterAttributeName:
            if byte == UInt8(ascii: "=") {
                state = .beforeAttributeValue
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else if !Self.isSpace(byte), byte != UInt8(ascii: "/") {
                attributeName = [Self.lower(byte)]
                state = .attributeName
            }
        case .beforeAttributeValue:
            if Self.isSpace(byte) { return }
            startValue()
            if byte == UInt8(ascii: "\"") {
                state = .doubleQuoted
            } else if byte == UInt8(ascii: "'") {
                state = .singleQuoted
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else {
                state = .unquoted
                valueByte(byte, at: offset)
            }
        case .doubleQuoted, .singleQuoted:
            if byte == UInt8(ascii: state == .doubleQuoted ? "\"" : "'") {
                endValue()
                state = .beforeAttributeName
            } else {
                valueByte(byte, at: offset)
            }
        case .unquoted:
            if Self.isSpace(byte) {
                endValue()
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: ">") {
                endValue()
                endTag()
            } else {
                valueByte(byte, at: offset)
            }
        case .rawText:
            stepRawText(byte)
        }
    }
}
