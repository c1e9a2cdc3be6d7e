/// Follows a template's static HTML, in source order, so that each `{{name}}` tag can be told whether it
/// stands in text, inside a tag, or in an attribute value, and which attribute.
///
/// It is deliberately small: tags, attributes (quoted and unquoted), comments, and the raw text of
/// `<script>` and `<style>`. It runs once, when the template is compiled.
struct HTMLContextScanner {
    private enum State {
        case data, markupOpen, markupDeclaration, comment, bogusComment, tagName, endTagName
        case beforeAttributeName, attributeName, afterAttributeName, beforeAttributeValue
        case doubleQuoted, singleQuoted, unquoted, rawText
    }

    private var state = State.data
    private var tagName: [UInt8] = []
    private var attributeName: [UInt8] = []
    private var dashes = 0
    private var rawTextEnd: [UInt8] = []
    private var rawTextMatched = 0
    /// In a URL attribute: the value's scheme is settled by static text (a `:`, `/`, `?` or `#` was seen).
    private var schemeSettled = false
    /// In an attribute value: something other than leading whitespace came before.
    private var valueStarted = false
    /// In a URL attribute: a value from the data came before the scheme was settled.
    private var dynamicBeforeScheme = false
    /// How many bytes into the last scanned text a `:` followed such a value (it could complete a scheme
    /// the value began, as in `href="{{a}}:alert(1)"`).
    private(set) var colonAfterValue: Int?

    static let urlAttributes: Set<String> = [
        "href", "src", "srcset", "action", "formaction", "poster", "cite", "data", "background", "longdesc",
        "usemap", "manifest", "icon", "codebase", "ping", "xlink:href", "imagesrcset", "lowsrc", "dynsrc",
    ]

    /// Reads static text.
    mutating func scan<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        colonAfterValue = nil
        var offset = 0
        for byte in bytes {
            if byte == UInt8(ascii: ":"), dynamicBeforeScheme, !schemeSettled, colonAfterValue == nil, isInValue {
                colonAfterValue = offset
            }
            step(byte)
            offset += 1
        }
    }

    private var isInValue: Bool { state == .doubleQuoted || state == .singleQuoted || state == .unquoted }

    /// The rule for a `{{name}}` tag at the current place; the tag's value then counts as part of what it sits in.
    mutating func ruleForValue() -> OutputRule {
        switch state {
        case .rawText:
            return rawTextEnd == Self.scriptEnd ? .script : .text
        case .data, .comment, .bogusComment, .markupDeclaration:
            return .text
        case .markupOpen, .tagName, .endTagName:
            state = .tagName
            return .unquoted
        case .beforeAttributeName, .attributeName, .afterAttributeName:
            state = .attributeName
            return .unquoted
        case .beforeAttributeValue:
            startValue()
            state = .unquoted
            return valueRule(unquoted: true)
        case .doubleQuoted, .singleQuoted:
            return valueRule(unquoted: false)
        case .unquoted:
            return valueRule(unquoted: true)
        }
    }

    private mutating func valueRule(unquoted: Bool) -> OutputRule {
        defer { valueStarted = true }
        let name = String(decoding: attributeName, as: UTF8.self).lowercased()
        if name.hasPrefix("on") { return .script }
        guard Self.urlAttributes.contains(name) else { return unquoted ? .unquoted : .text }
        if name.hasSuffix("srcset") { return .url(.sourceSet, unquoted: unquoted) }
        if schemeSettled { return unquoted ? .unquoted : .text }
        dynamicBeforeScheme = true
        return .url(valueStarted ? .continuation : .start, unquoted: unquoted)
    }

    private static let scriptEnd = Array("</script".utf8)

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    private mutating func startValue() {
        schemeSettled = false
        valueStarted = false
        dynamicBeforeScheme = false
    }

    private mutating func valueByte(_ byte: UInt8) {
        if !valueStarted, Self.isSpace(byte) { return }
        valueStarted = true
        if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
            schemeSettled = true
        }
    }

    private mutating func endTag() {
        let name = String(decoding: tagName, as: UTF8.self)
        if state != .endTagName, name == "script" || name == "style" || name == "textarea" || name == "title" {
            rawTextEnd = Array("</\(name)".utf8)
            rawTextMatched = 0
            state = .rawText
        } else {
            state = .data
        }
    }

    private mutating func step(_ byte: UInt8) {
        switch state {
        case .data:
            if byte == UInt8(ascii: "<") { state = .markupOpen }
        case .markupOpen:
            if Self.isLetter(byte) {
                tagName = [Self.lower(byte)]
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
                tagName.append(Self.lower(byte))
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
                attributeName.append(Self.lower(byte))
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
                valueByte(byte)
            }
        case .doubleQuoted:
            if byte == UInt8(ascii: "\"") { state = .beforeAttributeName } else { valueByte(byte) }
        case .singleQuoted:
            if byte == UInt8(ascii: "'") { state = .beforeAttributeName } else { valueByte(byte) }
        case .unquoted:
            if Self.isSpace(byte) {
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: ">") {
                endTag()
            } else {
                valueByte(byte)
            }
        case .rawText:
            if Self.lower(byte) == rawTextEnd[rawTextMatched] {
                rawTextMatched += 1
                if rawTextMatched == rawTextEnd.count {
                    tagName = []
                    state = .endTagName
                }
            } else {
                rawTextMatched = Self.lower(byte) == rawTextEnd[0] ? 1 : 0
            }
        }
    }
}
