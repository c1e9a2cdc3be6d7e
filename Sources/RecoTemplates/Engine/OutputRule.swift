/// How one `{{name}}` tag writes its value, decided when the template is compiled from where the tag stands.
enum OutputRule: Sendable, Hashable {
    /// As it is: `{{{name}}}`, `{{& name}}`, and every tag of a plain-text template.
    case raw
    /// Escaped for HTML text or a quoted attribute value (`& < > " '`).
    case text
    /// Escaped for an unquoted attribute value or inside a tag, where spaces, `=` and backquotes matter too.
    case unquoted
    /// Inside `<script>` or an event-handler attribute (`onclick`…): every character but letters, digits,
    /// space, `_`, `,`, `.` and `-` is written as a JavaScript escape (`\u0027`), so a value cannot end a
    /// string literal, the script, or the attribute.
    case script
    /// CSS: a `style` attribute or a `<style>` element. Only a value made of plain characters (see
    /// ``CSSValue``) is written, escaped for the attribute when `unquoted`; any other value is left out.
    case css(unquoted: Bool)
    /// The text (or a plain quoted attribute) of an HTML document inside a `srcdoc` attribute: escaped
    /// for the inner document, then again for the attribute, so the inner document shows it as text.
    case document(unquoted: Bool)
    /// A URL attribute's value (`href`, `src`, …): checked, then escaped.
    case url(URLPart, unquoted: Bool)
}

/// Where a value stands inside a URL attribute, which decides how it is checked.
enum URLPart: Sendable, Hashable {
    /// The value starts the URL: unless it is http(s), protocol-relative or relative, `about:invalid` is
    /// written instead.
    case start
    /// The value continues a URL whose scheme is not yet settled (`href="{{a}}{{b}}"`): it is dropped if it
    /// could complete a scheme (a `:` before any `/`, `?` or `#`).
    case continuation
    /// A `srcset` list: every candidate's URL must be safe, or `about:invalid` is written instead.
    case sourceSet
}
