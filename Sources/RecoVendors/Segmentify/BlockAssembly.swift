/// Assembles the products of Segmentify blocks, one reply at a time, by the vendor's rule (written out
/// in full in the documentation of ``SegmentifyRecommendations``): static items first; dynamic items
/// up to a running deficit, so a short source's share carries over; elimination of products already in
/// the block or shown by an earlier block, except for the LAST_VISITED / EVENT_DATA sources.
///
/// Products past ``ReplyLimits/productsPerWidget`` or ``ReplyLimits/productsPerReply`` are left out
/// with a notice. Counts are at most ``ReplyLimits/itemCount`` each, and the running deficit is added
/// with saturation, so no count a vendor sends can overflow.
///
/// One value lives for one reply: it remembers which products earlier blocks showed.
struct BlockAssembly {
    /// productIds shown by the blocks assembled so far (exempt sources and static items excepted): those
    /// in `shown`, and those in `unhashed`, which go into the set only when a block eliminates (until
    /// then nothing reads them, and most replies never eliminate: no hashing per product).
    private var shown: Set<String> = []
    private var unhashed: [String] = []
    /// The products kept so far against the reply's limits.
    private var budget: ProductBudget

    init(limits: ReplyLimits = .default) {
        budget = ProductBudget(limits)
    }

    /// The products of `block` in order, with their paths; failures and eliminations go to `report`.
    mutating func assemble<Node: JSONNode>(_ block: SegmentifyBlock<Node>, report: inout DecodingReport) -> [(RawProduct, JSONPath)] {
        var products: [(RawProduct, JSONPath)] = []
        // The block's productIds: read for static items (repeats are reported) and, when the block
        // eliminates, for dynamic ones; otherwise a dynamic product need not go in.
        var inBlock: Set<String> = []
        let eliminates = block.elimination.eliminates
        // Quoted in a notice for every product left out: a megabyte id made a gigabyte of notices.
        let named = block.instanceId.shortened(to: String.quotedCodeLength)
        // Room for every product the block was sent, so the sets and the list never grow by rehashing.
        let sent = (block.staticProducts?.elements.count ?? 0) + block.sources.reduce(0) { $0 + ($1.list?.elements.count ?? 0) }
        if eliminates || block.staticProducts != nil { inBlock.reserveCapacity(sent) }
        if eliminates {
            // A product of this block is in `inBlock`, checked first, so the set need only hold earlier blocks'.
            shown.reserveCapacity(shown.count + unhashed.count + sent)
            for id in unhashed { shown.insert(id) }
            unhashed.removeAll(keepingCapacity: true)
        }
        products.reserveCapacity(sent)

        if let list = block.staticProducts {
            for (index, element) in list.elements.enumerated() {
                let path = list.path.appending(index: index)
                guard budget.admits(products.count, at: path, of: block.instanceId, report: &report) else { return products }
                guard let product = Self.product(element, index: index, at: path, of: block, report: &report) else { continue }
                if inBlock.contains(product.productId) {
                    report.notices.append(DecodingNotice(.duplicateEliminated, at: path, "static item \(product.productId.shortened(to: String.quotedCodeLength)) of \(named) is already in the block"))
                    continue
                }
                inBlock.insert(product.productId)
                products.append((product, path))
                budget.take()
            }
        }

        var deficit = 0
        for source in block.sources {
            guard source.item.itemCount > 0, let list = source.list else { continue }
            deficit = Self.saturatingSum(deficit, source.item.itemCount)
            let exempt = source.item.isExempt
            for (index, element) in list.elements.enumerated() {
                guard deficit > 0 else { break }
                let path = list.path.appending(index: index)
                guard budget.admits(products.count, at: path, of: block.instanceId, report: &report) else { return products }
                guard let product = Self.product(element, index: index, at: path, of: block, report: &report) else { continue }
                let id = product.productId
                if eliminates {
                    if inBlock.contains(id) {
                        report.notices.append(DecodingNotice(.duplicateEliminated, at: path, "product \(id.shortened(to: String.quotedCodeLength)) is already in \(named)"))
                        continue
                    }
                    if !exempt && shown.contains(id) {
                        report.notices.append(DecodingNotice(.duplicateEliminated, at: path, "product \(id.shortened(to: String.quotedCodeLength)) was already shown by an earlier block, so \(named) leaves it out"))
                        continue
                    }
                }
                if eliminates {
                    inBlock.insert(id)
                    if !exempt { shown.insert(id) }
                } else if !exempt {
                    unhashed.append(id)
                }
                products.append((product, path))
                budget.take()
                deficit -= 1
            }
        }
        return products
    }

    /// `a + b`, or `Int.max` when that would overflow.
    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    private static func product<Node: JSONNode>(_ element: Node, index: Int, at path: JSONPath, of block: SegmentifyBlock<Node>, report: inout DecodingReport) -> RawProduct? {
        do {
            return try element.rawProduct(at: path)
        } catch {
            report.failures.append(ProductFailure(index: index, productId: element["productId"]?.scalarText, instanceId: block.instanceId, path: error.path, reason: error.message))
            return nil
        }
    }
}
