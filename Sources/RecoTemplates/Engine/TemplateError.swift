/// A template that cannot be loaded or rendered, with the template's name and, when it is about a place in
/// the template, the line and column.
///
/// Its description is one line: `carousel:12:5: unclosed section "products", expected {{/products}}`; for a
/// template a library read from a folder, its file instead of its name
/// (`Templates/carousel.mustache:12:5: …`), as compilers and editors name places.
public struct TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case syntax
        case unknownPartial
        case unknownParent
        case unknownTemplate
        case unreadable
        case tooDeep
        case tooLarge
    }

    /// What kind of failure this is; compare with the static members (`error.kind == .unknownPartial`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// The template text is malformed: an unclosed tag or section, a mismatched closing tag, a bad delimiter….
        public static let syntax = Kind(name: "syntax")
        /// A partial (`{{>name}}`) names no template.
        public static let unknownPartial = Kind(name: "unknownPartial")
        /// A parent (`{{<name}}`) names no template.
        public static let unknownParent = Kind(name: "unknownParent")
        /// A library was asked for a template it does not hold.
        public static let unknownTemplate = Kind(name: "unknownTemplate")
        /// A template file or folder could not be read.
        public static let unreadable = Kind(name: "unreadable")
        /// Partials or parents include each other too deeply (most likely without end).
        public static let tooDeep = Kind(name: "tooDeep")
        /// A render passed its ``RenderLimits``: too many steps (sections or partials repeated too often), or too much text.
        public static let tooLarge = Kind(name: "tooLarge")
        /// The kind's name.
        public var description: String { name }
    }

    private let base: Base
    /// The template's name (or the file or folder, for an unreadable one).
    public let templateName: String
    /// The file the template was read from, when a ``TemplateLibrary`` loaded it from a folder.
    public let file: String?
    /// The 1-based line in the template, when the error is about a place in it.
    public let line: Int?
    /// The 1-based column (in characters) in the template, when the error is about a place in it.
    public let column: Int?
    /// What went wrong and, where it helps, what was expected.
    public let message: String

    private init(_ base: Base, _ message: String, template: String, file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.base = base
        self.message = message
        self.templateName = template
        self.file = file
        self.line = line
        self.column = column
    }

    /// The same error, placed in `file` (the file its template was read from), unless it names one already.
    func inFile(_ file: String?) -> TemplateError {
        guard self.file == nil, let file else { return self }
        return TemplateError(base, message, template: templateName, file: file, line: line, column: column)
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .syntax: .syntax
        case .unknownPartial: .unknownPartial
        case .unknownParent: .unknownParent
        case .unknownTemplate: .unknownTemplate
        case .unreadable: .unreadable
        case .tooDeep: .tooDeep
        case .tooLarge: .tooLarge
        }
    }

    /// One line: `name:line:column: message` (line and column when the error has a place; the file
    /// instead of the name when there is one).
    public var description: String {
        var text = file ?? templateName
        if let line { text += ":\(line)" }
        if let column { text += ":\(column)" }
        return text + ": " + message
    }

    /// The template text is malformed at this place.
    static func syntax(_ message: String, at location: SourceLocation) -> TemplateError {
        TemplateError(.syntax, message, template: location.template, line: location.line, column: location.column)
    }

    /// A partial tag names no template.
    static func unknownPartial(_ name: String, at location: SourceLocation, dynamicFrom tag: String? = nil) -> TemplateError {
        let via = tag.map { " (the value of \"*\($0)\")" } ?? ""
        return TemplateError(
            .unknownPartial, "unknown partial \"\(name)\"\(via), expected a template of that name in the library",
            template: location.template, line: location.line, column: location.column)
    }

    /// A parent tag names no template.
    static func unknownParent(_ name: String, at location: SourceLocation) -> TemplateError {
        TemplateError(
            .unknownParent, "unknown parent \"\(name)\", expected a template of that name in the library",
            template: location.template, line: location.line, column: location.column)
    }

    /// A library holds no template of this name.
    static func unknownTemplate(_ name: String, known: [String]) -> TemplateError {
        let list = known.isEmpty ? "none" : known.joined(separator: ", ")
        return TemplateError(.unknownTemplate, "no template named \"\(name)\" (known: \(list))", template: name)
    }

    /// A template file or folder could not be read.
    static func unreadable(_ path: String, reason: String) -> TemplateError {
        TemplateError(.unreadable, "cannot read templates: \(reason)", template: path)
    }

    /// A template file holds a byte that is not UTF-8, at this place.
    static func notUTF8(byte: UInt8, template: String, file: String, line: Int, column: Int) -> TemplateError {
        let hex = String(byte, radix: 16, uppercase: true)
        return TemplateError(.unreadable, "not UTF-8 text: byte 0x\(hex.count < 2 ? "0" + hex : hex) (a template is UTF-8; save the file as UTF-8)",
                             template: template, file: file, line: line, column: column)
    }

    /// Partials or parents, with the sections around them, nest deeper than the limit.
    static func tooDeep(_ name: String, limit: Int, at location: SourceLocation) -> TemplateError {
        TemplateError(
            .tooDeep, "partials and the sections around them nest deeper than \(limit) levels at \"\(name)\", expected a partial that does not include itself without end",
            template: location.template, line: location.line, column: location.column)
    }

    /// A block shown inside itself, with the partials and sections around it, nests deeper than the limit.
    static func blockTooDeep(_ name: String, limit: Int, at location: SourceLocation) -> TemplateError {
        TemplateError(
            .tooDeep, "block \"\(name)\" nests deeper than \(limit) levels with the partials and sections around it, expected an override that does not show the block it replaces",
            template: location.template, line: location.line, column: location.column)
    }

    /// A render took more steps than its limit allows.
    static func tooManySteps(limit: Int, at location: SourceLocation) -> TemplateError {
        TemplateError(
            .tooLarge, "the render takes more than \(limit) steps here, expected at most RenderLimits.maximumSteps (sections nested over the same list repeat their content exponentially)",
            template: location.template, line: location.line, column: location.column)
    }

    /// A render wrote more text than its limit allows.
    static func outputTooLarge(bytes: Int, limit: Int, at location: SourceLocation) -> TemplateError {
        TemplateError(
            .tooLarge, "the render has written \(bytes) bytes here, expected at most RenderLimits.maximumOutputBytes (\(limit))",
            template: location.template, line: location.line, column: location.column)
    }
}
