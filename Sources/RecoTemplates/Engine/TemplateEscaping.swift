/// How a template writes the values of its `{{name}}` tags.
public enum TemplateEscaping: Sendable, Hashable {
    /// HTML: every value is escaped for where it stands (text, attribute value, URL attribute); only
    /// `{{{name}}}` and `{{& name}}` write raw text.
    case html
    /// Plain text: values are written as they are (for text emails and terminals).
    case none
}

/// What a library does about a partial or parent that names no template.
public enum MissingPartials: Sendable, Hashable {
    /// It is an error: a static reference fails when the library is loaded (with its line and column), a
    /// dynamic one (`{{>*name}}`) when it is rendered. The default.
    case error
    /// It renders as empty text, as the Mustache specification says (for conformance tests).
    case renderEmpty
}
