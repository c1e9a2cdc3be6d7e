/// What a piece of template text is, as the tokenizer sees it.
enum TokenKind: Sendable {
    case text
    /// `{{name}}`
    case variable
    /// `{{{name}}}` or `{{& name}}`
    case rawVariable
    /// `{{#name}}`
    case section
    /// `{{^name}}`
    case inverted
    /// `{{/name}}`
    case close
    /// `{{>name}}`
    case partial
    /// `{{<name}}`
    case parent
    /// `{{$name}}`
    case block
    /// `{{! … }}`
    case comment
    /// `{{=<% %>=}}`
    case delimiters

    /// Whether a line holding only this tag (and whitespace) disappears from the output.
    var canStandAlone: Bool {
        switch self {
        case .text, .variable, .rawVariable: false
        default: true
        }
    }

    /// Whether this tag opens a scope closed by `{{/name}}`.
    var opensScope: Bool {
        switch self {
        case .section, .inverted, .parent, .block: true
        default: false
        }
    }
}

/// One piece of a template: a run of text (never past a newline) or a tag.
struct Token {
    var kind: TokenKind
    /// For text, the bytes to write (standalone lines and block dedenting narrow it); for a tag, the whole tag.
    var start: Int
    var end: Int
    /// The tag's name, trimmed ("" for text and comments).
    var name: String = ""
    /// A partial whose name is looked up in the data (`{{>*name}}`).
    var isDynamic = false
    /// The delimiters in force for this tag (for error messages).
    var delimiters: (open: String, close: String) = ("{{", "}}")
    /// The tag stands alone on its line.
    var isStandalone = false
    /// The whitespace before a standalone tag (indentation for partials, parents and blocks).
    var indentation = ""
    /// Text dropped because its line holds only standalone tags.
    var isRemoved = false
    /// How many leading whitespace bytes the innermost enclosing standalone block removes from this line.
    var dedent = 0
    /// The index of the matching open or close tag.
    var partner = -1

    /// The tag as written with its delimiters, for messages: `{{/products}}`.
    func closing(_ name: String) -> String { delimiters.open + "/" + name + delimiters.close }
}
