import Foundation

/// A Mustache template, compiled once and rendered many times, from many tasks at once.
///
/// ```swift
/// let template = try Template(#"<a href="{{url}}">{{name}}</a>"#, name: "link")
/// try template.render(.object(["url": "javascript:alert(1)", "name": "<b>Lamp</b>"]))
/// // <a href="about:invalid">&lt;b&gt;Lamp&lt;/b&gt;</a>
/// ```
///
/// With ``TemplateEscaping/html`` every `{{name}}` is escaped for where it stands, and a value that starts a
/// URL attribute (`href`, `src`, …) is written only when ``HTMLEscaping/safeURL(_:)`` accepts it. Partials
/// (`{{>name}}`) and parents (`{{<name}}`) resolve in the library given to ``render(_:partials:)``; load
/// templates through a ``TemplateLibrary`` to have every such name checked up front.
public struct Template: Sendable {
    let compiled: CompiledTemplate

    /// Compiles a template.
    /// - Parameters:
    ///   - source: The Mustache text.
    ///   - name: The name used in error messages and by partials.
    ///   - escaping: `.html` for HTML templates, `.none` for plain text.
    /// - Throws: ``TemplateError`` naming the template, line, column and what was expected.
    public init(_ source: String, name: String = "template", escaping: TemplateEscaping = .html) throws(TemplateError) {
        var compiler = try TemplateCompiler(source, name: name, escaping: escaping)
        let nodes = try compiler.compile()
        compiled = CompiledTemplate(
            name: name, source: source, escaping: escaping, nodes: nodes, arena: compiler.arena,
            names: compiler.names.table(), lookups: compiler.names.lookups, references: compiler.references)
    }

    /// Compiles a template whose partials and parents must all exist in `partials`.
    /// - Throws: ``TemplateError`` for malformed text, or for a partial or parent the library does not hold
    ///   (unless the library renders missing partials as empty).
    public init(_ source: String, name: String = "template", escaping: TemplateEscaping = .html, partials: TemplateLibrary)
        throws(TemplateError)
    {
        try self.init(source, name: name, escaping: escaping)
        try partials.check(self)
    }

    /// The template's name.
    public var name: String { compiled.name }
    /// The template's text.
    public var source: String { compiled.source }
    /// How the template writes values.
    public var escaping: TemplateEscaping { compiled.escaping }
    /// The names of the partials and parents the template includes by name (dynamic ones excluded).
    public var includedNames: [String] { compiled.references.map(\.name) }

    /// Renders the template with `value` at the bottom of the context stack.
    /// - Parameters:
    ///   - partials: Where `{{>name}}` and `{{<name}}` resolve.
    ///   - limits: How much the render may repeat and write (see ``RenderLimits``).
    /// - Throws: ``TemplateError`` when a partial or parent cannot be found (unless the library renders
    ///   missing partials as empty), partials include each other without end, or the render passes its
    ///   limits (kind ``TemplateError/Kind/tooLarge``, with the place of the section or partial).
    public func render(_ value: TemplateValue, partials: TemplateLibrary? = nil, limits: RenderLimits = .default) throws(TemplateError) -> String {
        var renderer = Renderer(
            root: value, names: compiled.names, lookups: compiled.lookups, library: partials, limits: limits,
            capacity: compiled.sizeHint.value)
        do throws(TemplateError) {
            try renderer.render(compiled.nodes)
        } catch {
            // A partial's error names the file it was read from, when the library read it from a folder.
            throw partials?.located(error, renderedFrom: self) ?? error
        }
        let text = renderer.output.finish()
        compiled.sizeHint.record(text.utf8.count)
        return text
    }
}

/// The compiled form a ``Template`` shares between its copies and renders.
final class CompiledTemplate: Sendable {
    let name: String
    let source: String
    let escaping: TemplateEscaping
    let nodes: [Node]
    /// Every node of ``nodes`` in a plain array (see ``NodeArena``).
    let arena: NodeArena
    /// The names its nodes look up, by the numbers their ``Name/slot`` holds.
    let names: NameTable
    /// How many names its nodes look up (counting repeats, not counting partials').
    let lookups: Int
    let references: [TemplateReference]
    let sizeHint: SizeHint

    init(
        name: String, source: String, escaping: TemplateEscaping, nodes: [Node], arena: NodeArena, names: NameTable,
        lookups: Int, references: [TemplateReference]
    ) {
        self.name = name
        self.source = source
        self.escaping = escaping
        self.nodes = nodes
        self.arena = arena
        self.names = names
        self.lookups = lookups
        self.references = references
        self.sizeHint = SizeHint(initial: source.utf8.count + source.utf8.count / 2 + 64)
    }
}

/// The largest output a template has rendered so far, so that the next render reserves it at once.
final class SizeHint: @unchecked Sendable {
    private let lock = NSLock()
    private var largest: Int

    init(initial: Int) { largest = initial }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return largest
    }

    func record(_ size: Int) {
        lock.lock()
        if size > largest { largest = size }
        lock.unlock()
    }
}
