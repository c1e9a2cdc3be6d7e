/// Renders widgets to HTML or text with a library of templates.
///
/// ```swift
/// let renderer = WidgetRenderer()                              // the built-in templates
/// let html = try renderer.render(widget)                       // a carousel
/// let page = try renderer.render(reply.widgets, template: "grid")
/// let text = try renderer.render(widget, template: "text")
///
/// // Your own templates first, the built-in ones for any name you do not have:
/// let mine = WidgetRenderer(library: try TemplateLibrary(directory: templatesFolder, fallback: .builtIn))
/// ```
///
/// A renderer is a value holding compiled templates; share one between tasks and render from as many
/// at once as you like.
public struct WidgetRenderer: Sendable {
    /// The templates to render with.
    public var library: TemplateLibrary
    /// The currency code assumed for a product without a `currency` field (nil: the price is written
    /// without a symbol).
    public var defaultCurrency: String?
    /// Where product links point instead of the product's own link (a server's click redirect); nil by default.
    public var clickLink: ClickLink?
    /// How much one widget's render may repeat and write (see ``RenderLimits``): a render past them throws
    /// a ``TemplateError`` of kind ``TemplateError/Kind/tooLarge``.
    public var limits: RenderLimits = .default

    /// A renderer with a library of templates.
    public init(library: TemplateLibrary = .builtIn, defaultCurrency: String? = nil, clickLink: ClickLink? = nil) {
        self.library = library
        self.defaultCurrency = defaultCurrency
        self.clickLink = clickLink
    }

    /// Renders one block.
    /// - Parameters:
    ///   - template: the template's name (`carousel`, `grid`, `list`, `email`, `text`, or one of yours).
    ///   - blockId: the block's HTML id (default: `reco-` and the instance id).
    ///   - includeStyles: whether HTML templates write their shared `<style>` (default: yes).
    /// - Throws: ``RenderError`` when there is no such template or it fails.
    public func render<Product>(_ widget: Widget<Product>, template: String = "carousel", blockId: String? = nil, includeStyles: Bool = true) throws(RenderError) -> String {
        let compiled = try self.template(named: template)
        let context = WidgetContext(widget, blockId: blockId, includeStyles: includeStyles, defaultCurrency: defaultCurrency,
                                    clickLink: clickLink)
        do {
            return try compiled.render(.context(context), partials: library, limits: limits)
        } catch {
            throw .template(error)
        }
    }

    /// Renders the blocks of a page, in order, one after another; only the first writes the shared
    /// `<style>`. Blocks are separated by a blank line. Two blocks with the same instance id get
    /// different HTML ids (`reco-r1v1`, `reco-r1v1-2`).
    public func render<Product>(_ widgets: [Widget<Product>], template: String = "carousel") throws(RenderError) -> String {
        var page = ""
        var usedIds: Set<String> = []
        // The next suffix to try for each base id: a reply of many blocks with one instance id would
        // otherwise walk every suffix already given for each block (quadratic). Every suffix below it
        // is taken, so the id is the same as the smallest free one.
        var nextSuffix: [String: Int] = [:]
        for (index, widget) in widgets.enumerated() {
            if index > 0 { page += "\n" }
            let base = WidgetContext<Product>.htmlId(for: widget.instanceId)
            var blockId = base
            if !usedIds.insert(blockId).inserted {
                var suffix = nextSuffix[base, default: 2]
                repeat {
                    blockId = "\(base)-\(suffix)"
                    suffix += 1
                } while !usedIds.insert(blockId).inserted
                nextSuffix[base] = suffix
            }
            page += try render(widget, template: template, blockId: blockId, includeStyles: index == 0)
        }
        return page
    }

    /// The compiled template with this name.
    /// - Throws: ``RenderError/unknownTemplate(_:available:)`` when the library has none.
    public func template(named name: String) throws(RenderError) -> Template {
        guard let template = library.template(named: name) else {
            throw .unknownTemplate(name, available: library.names.sorted())
        }
        return template
    }
}
