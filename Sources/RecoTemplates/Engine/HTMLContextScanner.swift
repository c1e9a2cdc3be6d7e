/// Follows a template's static HTML, in source order, so that each `{{name}}` tag can be told whether it
/// stands in text, inside a tag, or in an attribute value, and which attribute; ``HTMLContext`` (the one
/// table of contexts) then says how the value is written, or why the template is refused, and the scanner
/// keeps the refusal with its offset for the compiler to report with a line and column.
///
/// It is deliberately small: tags, attributes (quoted and unquoted), comments, the raw text of `<script>`,
/// `<style>`, `<textarea>` and `<title>`, and the document inside a `srcdoc` (followed by a scanner of its
/// own). It runs once, when the template is compiled; the states are in `HTMLContextScanner+States.swift`.
struct HTMLContextScanner {
    /// Where the scanner stands in the HTML tokenizer's terms.
    enum State {
        case data, markupOpen, markupDeclaration, comment, bogusComment, tagName, endTagName
        case beforeAttributeName, attributeName, afterAttributeName, beforeAttributeValue
        case doubleQuoted, singleQuoted, unquoted, rawText
    }

    var state = State.data
    var tagName: [UInt8] = []
    var attributeName: [UInt8] = []
    var dashes = 0
    /// In the text of a raw text element: its name, as text and as bytes.
    var rawTextTag = ""
    var rawTextName: [UInt8] = []
    /// In the text of a raw text element: the tokenizer's state there (see `HTMLContextScanner+RawText.swift`),
    /// and the tag name read so far in an end tag or after `<!--<`.
    var rawTextPhase = RawTextPhase.text
    var rawTextBuffer: [UInt8] = []
    /// In an attribute value: the context the table gives it.
    private var valueContext = HTMLContext.Attribute.text
    /// In an attribute value: its static bytes so far, up to ``valueBytesKept`` (for a URL's written scheme,
    /// `attributeName` and `http-equiv`).
    private var valueBytes: [UInt8] = []
    private static let valueBytesKept = 1024
    /// In a URL attribute: the value's scheme is settled by static text (a `:`, `/`, `?` or `#` was seen).
    private var schemeSettled = false
    /// In an attribute value: something other than leading whitespace came before.
    private var valueStarted = false
    /// In a URL attribute: a value from the data came before the scheme was settled.
    private var dynamicBeforeScheme = false
    /// In a `srcdoc` value: the inner document, followed by a scanner of its own (empty or one element).
    private var document: [HTMLContextScanner] = []
    /// In a `srcdoc` value: a `&` came in its static text, which this scanner does not decode.
    private var documentHasReference = false
    /// After sections that leave a tag in different states: the next byte must be a space, `/` or `>`.
    private var needsBoundary = false
    /// What the current tag has shown so far, for the contexts its end decides (see ``HTMLContext``).
    var tag = HTMLTagFacts()
    /// Why the template is refused, and the byte offset in the template that it is about; set by ``scan(_:)``
    /// or ``ruleForValue(at:raw:)``, and kept.
    private(set) var refusal: (reason: String, offset: Int)?

    /// Reads static text (a slice of the template's bytes, whose indices are offsets in the template).
    mutating func scan(_ bytes: ArraySlice<UInt8>) {
        for offset in bytes.indices { scan(bytes[offset], at: offset) }
    }

    /// Reads one byte of static text, at `offset` in the template.
    mutating func scan(_ byte: UInt8, at offset: Int) {
            if byte == UInt8(ascii: ":"), dynamicBeforeScheme, !schemeSettled, isInValue {
                refuse(
                    "a ':' after a value in a URL attribute could complete a scheme such as javascript:, expected the scheme (or '/', '?', '#') before the value",
                    at: offset)
            }
            if needsBoundary {
                needsBoundary = false
                if !Self.isSpace(byte), byte != UInt8(ascii: "/"), byte != UInt8(ascii: ">") {
                    refuse("after a section inside a tag, expected a space, '/' or '>' (the tag's name or attributes would differ by section)", at: offset)
                }
            }
            step(byte, at: offset)
    }

    /// Whether the scanner stands in text (or a comment), where a partial, a block or the end of a template
    /// may stand: what they write is scanned on its own, from text to text.
    var isAtTextLevel: Bool {
        switch state {
        case .data, .markupOpen, .markupDeclaration, .comment, .bogusComment: true
        default: false
        }
    }

    /// Whether a value here is written as HTML text: in text, in the text of `<textarea>` or `<title>`, or in
    /// a quoted plain attribute. A partial or a block, compiled on its own from HTML text, may stand here.
    var takesPlainText: Bool {
        switch state {
        case .rawText: HTMLContext.text(of: rawTextTag) == .text
        case .doubleQuoted, .singleQuoted: valueContext == .text
        default: isAtTextLevel
        }
    }

    /// Between a tag's name and attributes, outside any value: the states a section may move between
    /// (`<details{{#open}} open{{/open}}>`), as long as a space, `/` or `>` follows.
    private var isBetweenAttributes: Bool {
        state == .tagName || state == .beforeAttributeName || state == .attributeName || state == .afterAttributeName
    }

    /// Where the scanner stands, as far as a value's rule depends on it.
    private var place: [String] {
        var place = [isBetweenAttributes ? "between attributes" : "\(state)"]
        if state == .rawText { place += [rawTextTag, rawTextPlace] }
        if state != .data, state != .rawText, state != .comment, state != .bogusComment { place.append(tagString) }
        if isInValue || state == .beforeAttributeValue { place.append(String(decoding: attributeName, as: UTF8.self)) }
        return place + (document.first?.place ?? [])
    }

    /// Takes in the state of the other way through a section (`before`, when the section is skipped): false
    /// when the two stand in different places, else the scanner keeps the more careful reading of both.
    mutating func merge(skipped before: HTMLContextScanner) -> Bool {
        guard place == before.place else { return false }
        let namesDiffer = state != .beforeAttributeName && attributeName != before.attributeName
        if isBetweenAttributes, state != before.state || namesDiffer {
            state = .beforeAttributeName
            needsBoundary = true
        }
        needsBoundary = needsBoundary || before.needsBoundary
        schemeSettled = schemeSettled && before.schemeSettled
        valueStarted = valueStarted || before.valueStarted
        dynamicBeforeScheme = dynamicBeforeScheme || before.dynamicBeforeScheme
        documentHasReference = documentHasReference || before.documentHasReference
        tag.merge(before.tag)
        if refusal == nil { refusal = before.refusal }
        if var inner = document.first, let other = before.document.first {
            guard inner.merge(skipped: other) else { return false }
            document = [inner]
        }
        return true
    }

    private var isInValue: Bool { state == .doubleQuoted || state == .singleQuoted || state == .unquoted }

    private mutating func refuse(_ reason: String, at offset: Int) {
        if refusal == nil { refusal = (reason, offset) }
    }

    /// The rule for a `{{name}}` tag at `offset` in the template; the tag's value then counts as part of what
    /// it sits in. A raw value (`{{{name}}}`) is the author's choice and is never refused.
    mutating func ruleForValue(at offset: Int, raw: Bool = false) -> OutputRule {
        switch state {
        case .rawText:
            if !takeValueInRawText(), !raw { refuse(rawTextValueRefusal, at: offset) }
            switch HTMLContext.text(of: rawTextTag) {
            case .script: return .script
            case .css: return .css(unquoted: false)
            case .text: return .text
            }
        case .data, .comment, .bogusComment, .markupDeclaration:
            return .text
        case .markupOpen, .tagName, .endTagName:
            if !raw { refuse("a value cannot be (part of) a tag's name, expected the name written in the template", at: offset) }
            state = .tagName
            return .unquoted
        case .beforeAttributeName, .attributeName, .afterAttributeName:
            if !raw {
                refuse("a value cannot be (part of) an attribute's name, expected name=\"{{value}}\" with the name written in the template", at: offset)
            }
            state = .attributeName
            return .unquoted
        case .beforeAttributeValue:
            startValue()
            state = .unquoted
            return raw ? .raw : valueRule(unquoted: true, at: offset)
        case .doubleQuoted, .singleQuoted:
            return raw ? .raw : valueRule(unquoted: false, at: offset)
        case .unquoted:
            return raw ? .raw : valueRule(unquoted: true, at: offset)
        }
    }

    private mutating func valueRule(unquoted: Bool, at offset: Int) -> OutputRule {
        defer { valueStarted = true }
        let plain: OutputRule = unquoted ? .unquoted : .text
        switch valueContext {
        case .text: return plain
        case .script:
            if unquoted { refuse("a value in an event handler must stand inside quotes", at: offset) }
            return .script
        case .css: return .css(unquoted: unquoted)
        case .sourceSet: return .url(.sourceSet, unquoted: unquoted)
        case .url:
            if valueBytes.count >= Self.valueBytesKept {
                refuse("the URL's written start is too long to read its scheme, expected a shorter start before the value", at: offset)
            } else if let scheme = URLScheme.leading(String(decoding: valueBytes, as: UTF8.self)), !HTMLContext.schemesTakingValues.contains(scheme) {
                refuse(
                    "a value inside a \(scheme): URL could become script or a document, expected an http(s), mailto: or tel: URL, or a relative one",
                    at: offset)
            }
            if schemeSettled { return plain }
            dynamicBeforeScheme = true
            return .url(valueStarted ? .continuation : .start, unquoted: unquoted)
        case .document:
            if unquoted || documentHasReference {
                refuse("a value in srcdoc needs the srcdoc in quotes and written without character references (use ' inside \")", at: offset)
            }
            guard var inner = document.first else { return plain }
            let rule = inner.ruleForValue(at: offset)
            if let innerRefusal = inner.refusal { refuse("in srcdoc: " + innerRefusal.reason, at: innerRefusal.offset) }
            document = [inner]
            if rule != .text {
                refuse("a value in srcdoc may stand only in the text or a plain quoted attribute of the inner document", at: offset)
            }
            return .document(unquoted: unquoted)
        case .metaContent:
            if tag.metaContentValue == nil { tag.metaContentValue = offset }
            if tag.hasHTTPEquiv { refuse(HTMLContext.refusedMetaContent, at: offset) }
            return plain
        case .animationValue:
            if tag.animationValue == nil { tag.animationValue = offset }
            return plain
        case .refused(let reason):
            refuse(reason, at: offset)
            return plain
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    private var tagString: String { String(decoding: tagName, as: UTF8.self) }

    mutating func startValue() {
        schemeSettled = false
        valueStarted = false
        dynamicBeforeScheme = false
        valueBytes = []
        valueContext = HTMLContext.attribute(String(decoding: attributeName, as: UTF8.self), of: tagString)
        document = valueContext == .document ? [HTMLContextScanner()] : []
        documentHasReference = false
    }

    mutating func valueByte(_ byte: UInt8, at offset: Int) {
        if valueContext == .document, !document.isEmpty {
            if byte == UInt8(ascii: "&") { documentHasReference = true }
            document[0].scan(byte, at: offset)
            if let inner = document[0].refusal { refuse("in srcdoc: " + inner.reason, at: inner.offset) }
        }
        if !valueStarted, Self.isSpace(byte) { return }
        valueStarted = true
        if valueBytes.count < Self.valueBytesKept { valueBytes.append(byte) }
        if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
            schemeSettled = true
        }
    }

    /// The attribute's value ended: keeps what the tag's end decides on.
    mutating func endValue() {
        let name = String(decoding: attributeName, as: UTF8.self)
        if name == "http-equiv", !valueBytes.isEmpty { tag.hasHTTPEquiv = true }
        if name == "attributename", HTMLContext.animationElements.contains(tagString) {
            var target = String(decoding: valueBytes, as: UTF8.self).lowercased()
            while target.last?.isWhitespace == true { target.removeLast() }
            if tag.animationTarget != nil, tag.animationTarget != target { tag.targetDiffers = true }
            tag.animationTarget = target
        }
        document = []
        valueContext = .text
    }

    mutating func endTag() {
        let name = tagString
        if state != .endTagName {
            if let offset = tag.metaContentValue, tag.hasHTTPEquiv, name == "meta" { refuse(HTMLContext.refusedMetaContent, at: offset) }
            if let offset = tag.animationValue {
                if let reason = HTMLContext.refusedAnimation(of: name, target: tag.animationTarget, differs: tag.targetDiffers) {
                    refuse(reason, at: offset)
                }
            }
        }
        tag = HTMLTagFacts()
        if state != .endTagName, HTMLContext.rawTextElements.contains(name) {
            startRawText(name)
        } else {
            state = .data
        }
    }
}
