/// How a template writes the values of its `{{name}}` tags.
public enum TemplateEscaping: Sendable, Hashable {
    /// HTML: every value is escaped for where it stands (text, attribute value, URL attribute); only
    /// `{{{name}}}` and `{{& name}}` write raw text.
    case html
    /// Plain text: values are written as they are (for text emails and terminals).
    case none
}
