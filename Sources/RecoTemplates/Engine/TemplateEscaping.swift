/// How a template writes the values of its `{{name}}` tags.
public enum TemplateEscaping: Sendable, Hashable {
    /// HTML: every value is escaped for where it stands (text, attribute value, URL, script, CSS, `srcdoc`);
    /// only `{{{name}}}` and `{{& name}}` write raw text. A template that puts a value where no escaping
    /// makes it safe (the markup of a `srcdoc`, after a `javascript:` the template writes, in a
    /// `<meta http-equiv>` content, an animated link, `<script src>`, a tag's or an attribute's name…) is
    /// refused when it is compiled, with its line and column; the table is `Templates/README.md`'s.
    case html
    /// Plain text: values are written as they are (for text emails and terminals).
    case none
}
