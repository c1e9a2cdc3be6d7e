extension TemplateLibrary {
    /// The built-in templates, compiled from ``BuiltInTemplates/sources``: `carousel`, `grid`, `list`
    /// (HTML blocks sharing the parent `reco-block` and the stylesheet partial `reco-style`), `email`
    /// (HTML for mail clients) and `text` (plain text, not HTML-escaped).
    ///
    /// Use it as the fallback of your own library so that your templates can inherit from the
    /// built-in ones and any name you do not define resolves here:
    ///
    /// ```swift
    /// let library = try TemplateLibrary(templates: [
    ///     "my-carousel": "{{<carousel}}{{$price}}<b>{{displayPrice}}</b>{{/price}}{{/carousel}}",
    /// ], fallback: .builtIn)
    /// ```
    public static let builtIn: TemplateLibrary = {
        let sources = BuiltInTemplates.sources
        do {
            let html = try TemplateLibrary(templates: sources.filter { !BuiltInTemplates.plainText.contains($0.key) }, escaping: .html)
            return try TemplateLibrary(templates: sources.filter { BuiltInTemplates.plainText.contains($0.key) }, escaping: .none, fallback: html)
        } catch {
            // BuiltInTemplatesTests compiles every built-in template; this cannot happen in a tested build.
            fatalError("a built-in template does not compile: \(error)")
        }
    }()
}
