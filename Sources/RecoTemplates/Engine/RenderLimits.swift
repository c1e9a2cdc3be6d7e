/// How much one render may do before it stops with a ``TemplateError`` of kind ``TemplateError/Kind/tooLarge``.
///
/// A template's work can grow much faster than the template: twenty sections nested over the same list
/// of three (a 500-byte template) repeat their content about 3²⁰ times, because a name not found in a
/// list's element is looked up again in the scopes around it; partials that each include the next one
/// twice double the work at every level. Data from a vendor decides how long the lists are. These limits
/// keep such a render to a bounded time and memory, and say where it was stopped.
///
/// ```swift
/// let text = try template.render(value, limits: RenderLimits(maximumSteps: 100_000))
/// ```
public struct RenderLimits: Sendable, Hashable {
    /// How many steps one render may take. Each time the content of a section, a partial, a parent or a
    /// block is rendered (once for each element of a list, once for any other value that shows it), it
    /// counts its tags and pieces of text, times the number of scopes a name may be looked up through
    /// there (the context stack's objects, plus two): the most that rendering it once can cost, whatever
    /// the names. Default 10,000,000: a page of widgets with a hundred products takes some thousands.
    public var maximumSteps: Int
    /// How many bytes of text (UTF-8) one render may write. It is checked each time a section's or
    /// template's content starts, so a render may pass it by the text and values of that content before
    /// it stops. Default 256 MiB: a preview page writes each product's name several times, and names may be
    /// as long as the JSON parser allows (16 MiB); a page of 8 MB names is 72 MB of HTML.
    public var maximumOutputBytes: Int

    public init(maximumSteps: Int = 10_000_000, maximumOutputBytes: Int = 256 << 20) {
        self.maximumSteps = maximumSteps
        self.maximumOutputBytes = maximumOutputBytes
    }

    /// 10,000,000 steps and 256 MiB of text.
    public static let `default` = RenderLimits()
}
