/// The widgets decoded from one vendor reply, and the report of everything that did not become a
/// shown product.
///
/// ```swift
/// struct Shoe: RecommendableProduct {
///     let productId: String
///     let name: String
///     let brand: String?
/// }
/// let reply = try SegmentifyRecommendations.decode(data)        // Recommendations<RawProduct>
/// let shoes = reply.decoded(as: Shoe.self, filters: [ProductFilter(name: "brand", values: ["Asics"])])
/// for widget in shoes.widgets { print(widget.title, widget.products.map(\.name)) }
/// for failure in shoes.report.failures { print(failure) }   // product 3 (p-9) of hp_1: … at $.responses[0][0]…
/// ```
public struct Recommendations<Product: RecommendableProduct>: Sendable {
    /// The blocks to show, in the vendor's order.
    public var widgets: [Widget<Product>]
    /// Products that failed to decode and things passed over, with where and why.
    public var report: DecodingReport

    public init(widgets: [Widget<Product>], report: DecodingReport = DecodingReport()) {
        self.widgets = widgets
        self.report = report
    }

    /// The widget with this campaign instance id.
    public func widget(instanceId: String) -> Widget<Product>? { widgets.first { $0.instanceId == instanceId } }

    /// The product with this id in the widget with this instance id, with its position.
    public func item(instanceId: String, productId: String) -> WidgetItem<Product>? {
        widget(instanceId: instanceId)?.item(productId: productId)
    }
}

extension Recommendations where Product == RawProduct {
    /// Decodes every widget's products into your model.
    ///
    /// For each product, in order: the `filters` are evaluated on the full raw product (a product that
    /// fails one is left out, and counted in a ``DecodingNotice/Kind/filteredOut`` notice); then the
    /// field selection is applied; then your model is decoded. A product that does not decode is left
    /// out and reported as a ``ProductFailure`` with its JSON path and reason. Positions are renumbered
    /// from 1 over the products that remain, because they are what a visitor sees. A widget left with
    /// no products is not returned, and is reported as ``DecodingNotice/Kind/emptyWidget``.
    public func decoded<T: RecommendableProduct>(as type: T.Type, fields: FieldSelection = .all, filters: [ProductFilter] = []) -> Recommendations<T> {
        var report = self.report
        var decodedWidgets: [Widget<T>] = []
        decodedWidgets.reserveCapacity(widgets.count)
        for widget in widgets {
            var items: [WidgetItem<T>] = []
            items.reserveCapacity(widget.items.count)
            var filteredOut = 0
            for (index, item) in widget.items.enumerated() {
                if !filters.isEmpty && !ProductFilter.product(item.raw, passes: filters) {
                    filteredOut += 1
                    continue
                }
                let selected = fields.apply(to: item.raw)
                do {
                    let product = try T.self == RawProduct.self ? selected as! T : selected.decode(T.self)
                    items.append(WidgetItem(position: items.count + 1, product: product, raw: selected, path: item.path))
                } catch {
                    // The index as the vendor sent it: the last array index of the product's path.
                    var sentIndex = index
                    if case .index(let last)? = item.path.components.last { sentIndex = last }
                    report.add(ProductFailure(index: sentIndex, productId: item.raw.productId, instanceId: widget.instanceId, productPath: item.path, error: error))
                }
            }
            if filteredOut > 0 {
                let list = filters.map(\.description).joined(separator: "; ")
                report.add(DecodingNotice(.filteredOut, at: widget.path, "\(filteredOut) of \(widget.items.count) products of \(widget.instanceId) did not pass the filters \(list)"))
            }
            if items.isEmpty {
                report.add(DecodingNotice(.emptyWidget, at: widget.path, "\(widget.instanceId) has no products left to show"))
                continue
            }
            decodedWidgets.append(Widget(vendor: widget.vendor, instanceId: widget.instanceId, interactionId: widget.interactionId, title: widget.title, items: items, path: widget.path))
        }
        for field in fields.listedFields where !widgets.contains(where: { $0.items.contains { $0.raw[field] != nil } }) {
            report.add(DecodingNotice(.fieldNotFound, at: .root, "the selected field \"\(field)\" is in no product"))
        }
        return Recommendations<T>(widgets: decodedWidgets, report: report)
    }
}
