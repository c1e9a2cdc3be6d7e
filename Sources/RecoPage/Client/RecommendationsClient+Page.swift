import RecoKit

extension RecommendationsClient {
    /// A page's blocks from several vendors, asked at once within one budget, chosen and rendered
    /// together by `render`, which is given every vendor's part in the order of `requests` (widgets or
    /// why there are none, each served by the first step of the fallback chain that could: see
    /// ``ServedBlock``) and returns the widgets the page shows and their HTML. The page's
    /// ``RenderedPage/served`` says which step served each part.
    ///
    /// When every request is shared and every vendor's answer (fresh, cached or stale) was served, what `render` returned is kept in the
    /// cache beside the first request's answer, under `name` (say, the template's name and whatever
    /// else `render` depends on), for as long as all the answers it came from are kept: later pages with
    /// the same answers neither decode nor render again (``RenderedPage/fromCache``). Pages that waited on
    /// the same fetch render side by side; each is served the rendering kept first, so every visitor
    /// sees the same HTML. A page where a part was served by the shop's lists or by none is not kept, so
    /// an outage is not remembered past itself.
    ///
    /// ```swift
    /// let page = try await client.renderedPage(for: [segmentify, reteno], as: Product.self,
    ///                                          budget: .milliseconds(300), name: "carousel") { parts in
    ///     let widgets = parts.allWidgets()
    ///     return RenderedPage(widgets: widgets, html: try renderer.render(widgets))
    /// }
    /// ```
    /// - Throws: what `render` throws.
    public func renderedPage<Product: RecommendableProduct>(for requests: [RecommendationsRequest], as type: Product.Type,
                                                            fields: FieldSelection = .all, filters: [ProductFilter] = [],
                                                            budget: Duration, name: String,
                                                            render: ([VendorWidgets<Product>]) throws -> RenderedPage<Product>) async rethrows -> RenderedPage<Product> {
        let answers = await settleAll(requests.map { begin($0) }, requests, budget: budget)
        let keys = requests.compactMap(\.cacheKey)
        let generations = answers.compactMap(\.generation)
        let label = Self.pageName(name, Product.self, fields: fields, filters: filters, keys: keys)
        let keep = cache != nil && !requests.isEmpty && keys.count == requests.count && generations.count == requests.count
        if keep, let cache, let kept = cache.rendered(keys[0], name: label, generation: generations[0], others: Array(generations.dropFirst())),
           var page = kept.shown as? RenderedPage<Product> {
            page.fromCache = true
            page.served = answers.map(served)
            return page
        }
        let parts = zip(answers, requests).map { serve($0, $1, as: type, fields: fields, filters: filters) }
        let decodedAll = parts.allSatisfy(\.served.step.isVendorAnswer)
        var page = try render(parts)
        page.fromCache = false
        page.served = parts.map(\.served)
        if keep, decodedAll, let cache,
           let first = cache.keepRendered(.init(html: page.html, shown: page, others: Array(generations.dropFirst())), keys[0], name: label,
                                          generation: generations[0]),
           var kept = first.shown as? RenderedPage<Product> {
            // A page that waited on the same answers rendered first: serve what it kept.
            kept.fromCache = true
            kept.served = page.served
            return kept
        }
        return page
    }

    /// The page kept by ``renderedPage(for:as:fields:filters:budget:name:render:)`` for shared requests
    /// with these cache keys (in the same order, with the same model, fields, filters and name), if
    /// every answer it came from is fresh: for a page whose requests cost something to build (they
    /// carry the visitor's ids, say), asked before building them. Nil when there is none, or an answer
    /// is stale or missing: then ask with the requests, which refreshes or fetches. Each part is
    /// reported (and observed) as served ``ServedBlock/Step/cached``.
    public func keptPage<Product: RecommendableProduct>(for keys: [RecommendationsCacheKey], as type: Product.Type,
                                                        fields: FieldSelection = .all, filters: [ProductFilter] = [],
                                                        name: String) -> RenderedPage<Product>? {
        guard let cache, let kept = cache.keptRendering(keys, name: Self.pageName(name, type, fields: fields, filters: filters, keys: keys)),
              var page = kept.shown as? RenderedPage<Product> else { return nil }
        page.fromCache = true
        page.served = keys.map { ServedBlock(vendor: $0.vendor, step: .cached) }
        if let observer { for served in page.served { observer.blockServed(served) } }
        return page
    }

    /// What a page is kept under beside its first answer.
    private static func pageName<Product>(_ name: String, _ type: Product.Type, fields: FieldSelection, filters: [ProductFilter],
                                          keys: [RecommendationsCacheKey]) -> RecommendationsCache.RenderingName {
        RecommendationsCache.RenderingName(name: "page|" + name, product: ObjectIdentifier(type), fields: fields, filters: filters, others: Array(keys.dropFirst()))
    }
}
