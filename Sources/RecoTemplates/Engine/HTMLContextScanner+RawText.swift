/// The text of `<script>`, `<style>`, `<textarea>` and `<title>` as the HTML tokenizer reads it (HTML
/// Living Standard, 13.2.5: script data and its escaped and double-escaped states, RAWTEXT, RCDATA).
///
/// The element ends only at its own end tag followed by whitespace, `/` or `>` (`</scripts>` and
/// `</script-x>` do not end it). In a script, `<!--` starts the escaped state, where `<script` followed by
/// whitespace, `/` or `>` starts the double-escaped state: there `</script>` does not end the script, it
/// goes back to the escaped state; `-->` goes back to plain script data. Reading any of this otherwise
/// would take the rest of a script or style for HTML while a browser runs it.
extension HTMLContextScanner {
    /// Where the scanner stands inside the text of a raw text element, in the tokenizer's terms.
    enum RawTextPhase: Equatable {
        /// Script data, RAWTEXT or RCDATA, outside anything that may be a tag or a comment's start.
        case text
        case lessThan, endTagOpen, endTagName
        case escapeStart, escapeStartDash
        case escaped, escapedDash, escapedDashDash, escapedLessThan, escapedEndTagOpen, escapedEndTagName
        case doubleEscapeStart
        case doubleEscaped, doubleEscapedDash, doubleEscapedDashDash, doubleEscapedLessThan, doubleEscapeEnd
    }

    /// Enters the text of the raw text element `name`.
    mutating func startRawText(_ name: String) {
        rawTextTag = name
        rawTextName = Array(name.utf8)
        rawTextPhase = .text
        rawTextBuffer = []
        state = .rawText
    }

    /// Moves to the next phase for one byte of static text inside a raw text element.
    mutating func stepRawText(_ byte: UInt8) {
        let script = rawTextTag == "script"
        switch rawTextPhase {
        case .text:
            if byte == UInt8(ascii: "<") { rawTextPhase = .lessThan }
        case .lessThan:
            if byte == UInt8(ascii: "/") {
                rawTextBuffer = []
                rawTextPhase = .endTagOpen
            } else if script, byte == UInt8(ascii: "!") {
                rawTextPhase = .escapeStart
            } else {
                reconsumeRawText(byte, in: .text)
            }
        case .endTagOpen, .escapedEndTagOpen:
            let name: RawTextPhase = rawTextPhase == .endTagOpen ? .endTagName : .escapedEndTagName
            if Self.isLetter(byte) {
                reconsumeRawText(byte, in: name)
            } else {
                reconsumeRawText(byte, in: rawTextPhase == .endTagOpen ? .text : .escaped)
            }
        case .endTagName, .escapedEndTagName:
            if Self.isLetter(byte) {
                if rawTextBuffer.count < Self.nameBytesKept { rawTextBuffer.append(Self.lower(byte)) }
            } else if Self.endsName(byte), rawTextBuffer == rawTextName {
                endRawText(byte)
            } else {
                reconsumeRawText(byte, in: rawTextPhase == .endTagName ? .text : .escaped)
            }
        case .escapeStart:
            if byte == UInt8(ascii: "-") { rawTextPhase = .escapeStartDash } else { reconsumeRawText(byte, in: .text) }
        case .escapeStartDash:
            if byte == UInt8(ascii: "-") { rawTextPhase = .escapedDashDash } else { reconsumeRawText(byte, in: .text) }
        case .escaped, .escapedDash, .escapedDashDash:
            if byte == UInt8(ascii: "-") {
                rawTextPhase = rawTextPhase == .escaped ? .escapedDash : .escapedDashDash
            } else if byte == UInt8(ascii: "<") {
                rawTextPhase = .escapedLessThan
            } else if byte == UInt8(ascii: ">"), rawTextPhase == .escapedDashDash {
                rawTextPhase = .text
            } else {
                rawTextPhase = .escaped
            }
        case .escapedLessThan:
            if byte == UInt8(ascii: "/") {
                rawTextBuffer = []
                rawTextPhase = .escapedEndTagOpen
            } else if Self.isLetter(byte) {
                rawTextBuffer = []
                reconsumeRawText(byte, in: .doubleEscapeStart)
            } else {
                reconsumeRawText(byte, in: .escaped)
            }
        case .doubleEscapeStart, .doubleEscapeEnd:
            let starts = rawTextPhase == .doubleEscapeStart
            if Self.endsName(byte) {
                // `<script` ... `>` inside the escaped state: the double-escaped state, and out of it again.
                let named = rawTextBuffer == Array("script".utf8)
                rawTextPhase = starts ? (named ? .doubleEscaped : .escaped) : (named ? .escaped : .doubleEscaped)
            } else if Self.isLetter(byte) {
                if rawTextBuffer.count < Self.nameBytesKept { rawTextBuffer.append(Self.lower(byte)) }
            } else {
                reconsumeRawText(byte, in: starts ? .escaped : .doubleEscaped)
            }
        case .doubleEscaped, .doubleEscapedDash, .doubleEscapedDashDash:
            if byte == UInt8(ascii: "-") {
                rawTextPhase = rawTextPhase == .doubleEscaped ? .doubleEscapedDash : .doubleEscapedDashDash
            } else if byte == UInt8(ascii: "<") {
                rawTextPhase = .doubleEscapedLessThan
            } else if byte == UInt8(ascii: ">"), rawTextPhase == .doubleEscapedDashDash {
                rawTextPhase = .text
            } else {
                rawTextPhase = .doubleEscaped
            }
        case .doubleEscapedLessThan:
            if byte == UInt8(ascii: "/") {
                rawTextBuffer = []
                rawTextPhase = .doubleEscapeEnd
            } else {
                reconsumeRawText(byte, in: .doubleEscaped)
            }
        }
    }

    /// A value inside a raw text element's text: false when the scanner stands where the value's
    /// characters could finish a tag or a comment's start (after `<`, `</name`, `<!-`), which would
    /// change where the browser ends the element. Elsewhere the value can only add letters, digits,
    /// spaces or dashes to the text; dashes could close a `<!--` (the browser then ends the script
    /// sooner, never later), so the scanner keeps the reading in which the script runs longest.
    mutating func takeValueInRawText() -> Bool {
        switch rawTextPhase {
        case .text: return true
        case .escaped, .escapedDash, .escapedDashDash:
            rawTextPhase = .escaped
            return true
        case .doubleEscaped, .doubleEscapedDash, .doubleEscapedDashDash:
            rawTextPhase = .doubleEscaped
            return true
        default:
            return false
        }
    }

    /// Why a value cannot stand where ``takeValueInRawText()`` said no.
    var rawTextValueRefusal: String {
        "a value cannot stand inside what may be a tag or a comment's start (after '<') in <\(rawTextTag)>; "
            + "expected the tag or '<!--' written whole in the template"
    }

    /// The phase and the name read so far: part of the place a section may leave the scanner in.
    var rawTextPlace: String { "\(rawTextPhase) \(String(decoding: rawTextBuffer, as: UTF8.self))" }

    private mutating func reconsumeRawText(_ byte: UInt8, in phase: RawTextPhase) {
        rawTextPhase = phase
        stepRawText(byte)
    }

    /// The element's end tag: `byte`, after its name, is whitespace, `/` or `>`.
    private mutating func endRawText(_ byte: UInt8) {
        tagName = rawTextName
        rawTextPhase = .text
        rawTextBuffer = []
        if byte == UInt8(ascii: ">") {
            state = .endTagName
            endTag()
        } else {
            // The rest of an end tag is read as its name's end: up to the '>'.
            state = .endTagName
            step(byte, at: 0)
        }
    }

    /// Whitespace, `/` or `>`: what ends a tag's name.
    private static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }
}
