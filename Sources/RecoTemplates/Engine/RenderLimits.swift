/// How much one render may do before it stops with a ``TemplateError`` of kind ``TemplateError/Kind/tooLarge``.
///
/// A template's output can grow much faster than the template: twenty sections nested over the same
/// list of three (a 500-byte template) repeat their content about 3²⁰ times, because a name not found in
/// a list's element is looked up again in the scopes around it; partials that each include the next one
/// twice double the work at every level. Data from a vendor decides how long the lists are. These limits
/// keep such a render to a bounded time and memory, and say where it was stopped.
///
/// ```swift
/// let text = try template.render(value, limits: RenderLimits(maximumPasses: 10_000))
/// ```
public struct RenderLimits: Sendable, Hashable {
    /// How many times one render may render the content of a section or another template: once for
    /// each element of a list a section repeats for, once for a section shown for any other value (and
    /// an inverted section shown), once for each partial or parent included. Default 1,000,000: a page
    /// of widgets takes a few thousand.
    public var maximumPasses: Int
    /// How many bytes of text (UTF-8) one render may write. It is checked each time a pass starts, so a
    /// render may pass it by the text and values of one template before it stops. Default 64 MiB.
    public var maximumOutputBytes: Int

    public init(maximumPasses: Int = 1_000_000, maximumOutputBytes: Int = 64 << 20) {
        self.maximumPasses = maximumPasses
        self.maximumOutputBytes = maximumOutputBytes
    }

    /// 1,000,000 passes and 64 MiB of text.
    public static let `default` = RenderLimits()
}
