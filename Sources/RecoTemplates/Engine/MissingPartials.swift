/// What a library does about a partial or parent that names no template.
public enum MissingPartials: Sendable, Hashable {
    /// It is an error: a static reference fails when the library is loaded (with its line and column), a
    /// dynamic one (`{{>*name}}`) when it is rendered. The default.
    case error
    /// It renders as empty text, as the Mustache specification says (for conformance tests).
    case renderEmpty
}
