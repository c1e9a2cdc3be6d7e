/// Assembles the products of Segmentify blocks, one reply at a time, by the vendor's rule (written out
/// in full in the documentation of ``SegmentifyRecommendations``): static items first; dynamic items
/// up to a running deficit, so a short source's share carries over; elimination of products already in
/// the block or shown by an earlier block, except for the LAST_VISITED / EVENT_DATA sources.
///
/// Products past ``ReplyLimits/productsPerWidget`` or ``ReplyLimits/productsPerReply`` are left out
/// with a notice. Counts are at most ``ReplyLimits/itemCount`` each, and the running deficit is added
/// with saturation, so no count a vendor sends can overflow.
///
/// Each position of a product list is examined at most once per block (see ``assemble(_:report:)``), and
/// what is passed over is reported through ``RecoKit/DecodingReport/add(_:)-(DecodingNotice)``, which
/// keeps a bounded list: the cost is linear in the reply whatever its shape.
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
    /// What assembly has examined and made so far, over every block of the reply.
    var work = DecodingWork()

    init(limits: ReplyLimits = .default) {
        budget = ProductBudget(limits)
    }

    /// How far the items of one block have read one of its lists. Several items may name the same
    /// source, and so read the same list; each reads it from the start by the vendor's rule, and these
    /// let each position be examined once per block whatever their number.
    private struct ListWalk {
        /// The first position no item has examined yet.
        var next = 0
        /// Without elimination: the products of the positions before `next`, in order, with their positions.
        var products: [(product: RawProduct, position: Int)] = []
    }

    /// The products of `block` in order, with their paths; failures and eliminations go to `report`.
    ///
    /// Each position of each list is examined and made into a product at most once per block, so the
    /// cost is linear in the reply whatever the number of items naming one source. The products are
    /// exactly those of the rule (each item reads its list from the start): with elimination, a position
    /// an earlier item of the block examined is left out again (in the block now, shown before, or not a
    /// product), so the next item starts where the last one stopped; without it, an item takes the
    /// list's first products again, made on the first read. A position passed over is reported once.
    mutating func assemble<Node: JSONNode>(_ block: SegmentifyBlock<Node>, report: inout DecodingReport) -> [(RawProduct, JSONPath)] {
        var products: [(RawProduct, JSONPath)] = []
        // The block's productIds: read for static items (repeats are reported) and, when the block
        // eliminates, for dynamic ones; otherwise a dynamic product need not go in.
        var inBlock: Set<String> = []
        let eliminates = block.elimination.eliminates
        // Quoted in a notice for every product left out: a megabyte id made a gigabyte of notices.
        let named = block.instanceId.shortened(to: String.quotedCodeLength)
        // Room for every product the block was sent, so the sets and the list never grow by rehashing.
        let sent = (block.staticProducts?.elements.count ?? 0) + block.lists.reduce(0) { $0 + $1.elements.count }
        if eliminates || block.staticProducts != nil { inBlock.reserveCapacity(sent) }
        if eliminates {
            // A product of this block is in `inBlock`, checked first, so the set need only hold earlier blocks'.
            shown.reserveCapacity(shown.count + unhashed.count + sent)
            for id in unhashed { shown.insert(id) }
            unhashed.removeAll(keepingCapacity: true)
        }
        products.reserveCapacity(min(sent, budget.widgetCapacity))

        if let list = block.staticProducts {
            for (index, element) in list.elements.enumerated() {
                let path = list.path.appending(index: index)
                work.examined += 1
                guard budget.admits(products.count, at: path, of: block.instanceId, report: &report) else { return products }
                guard let product = makeProduct(element, index: index, at: path, of: block, report: &report) else { continue }
                if inBlock.contains(product.productId) {
                    report.add(DecodingNotice(.duplicateEliminated, at: path, "static item \(product.productId.shortened(to: String.quotedCodeLength)) of \(named) is already in the block"))
                    continue
                }
                inBlock.insert(product.productId)
                products.append((product, path))
                budget.take()
            }
        }

        var walks = [ListWalk](repeating: ListWalk(), count: block.lists.count)
        var deficit = 0
        for source in block.sources {
            guard source.item.itemCount > 0, let listIndex = source.list else { continue }
            deficit = Self.saturatingSum(deficit, source.item.itemCount)
            let list = block.lists[listIndex]
            let count = list.elements.count
            guard count > 0 else { continue }
            let exempt = source.item.isExempt
            if eliminates {
                // The rule's walk from the start examines position 0 first: the budget is checked there.
                var position = walks[listIndex].next
                if position > 0 {
                    guard budget.admits(products.count, at: list.path.appending(index: 0), of: block.instanceId, report: &report) else { return products }
                }
                while deficit > 0, position < count {
                    let index = position
                    position += 1
                    let path = list.path.appending(index: index)
                    work.examined += 1
                    guard budget.admits(products.count, at: path, of: block.instanceId, report: &report) else { return products }
                    guard let product = makeProduct(list.elements[index], index: index, at: path, of: block, report: &report) else { continue }
                    let id = product.productId
                    if inBlock.contains(id) {
                        report.add(DecodingNotice(.duplicateEliminated, at: path, "product \(id.shortened(to: String.quotedCodeLength)) is already in \(named)"))
                        continue
                    }
                    if !exempt && shown.contains(id) {
                        report.add(DecodingNotice(.duplicateEliminated, at: path, "product \(id.shortened(to: String.quotedCodeLength)) was already shown by an earlier block, so \(named) leaves it out"))
                        continue
                    }
                    inBlock.insert(id)
                    if !exempt { shown.insert(id) }
                    products.append((product, path))
                    budget.take()
                    deficit -= 1
                }
                walks[listIndex].next = position
            } else {
                // The list's products in order, the first `taken` of them taken by this item.
                var taken = 0
                while deficit > 0 {
                    // The rule's walk goes on from the position after the last product taken: the budget is
                    // checked there, and nothing changes it over the positions that are not products.
                    let resume = taken == 0 ? 0 : walks[listIndex].products[taken - 1].position + 1
                    guard resume < count else { break }
                    guard budget.admits(products.count, at: list.path.appending(index: resume), of: block.instanceId, report: &report) else { return products }
                    if taken == walks[listIndex].products.count {
                        // Read on from where the items before stopped, up to the next product.
                        var found = false
                        while !found, walks[listIndex].next < count {
                            let index = walks[listIndex].next
                            walks[listIndex].next += 1
                            work.examined += 1
                            if let product = makeProduct(list.elements[index], index: index, at: list.path.appending(index: index), of: block, report: &report) {
                                walks[listIndex].products.append((product, index))
                                found = true
                            }
                        }
                        guard found else { break }
                    }
                    let (product, position) = walks[listIndex].products[taken]
                    taken += 1
                    if !exempt { unhashed.append(product.productId) }
                    products.append((product, list.path.appending(index: position)))
                    budget.take()
                    deficit -= 1
                }
            }
        }
        return products
    }

    /// `a + b`, or `Int.max` when that would overflow.
    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    private mutating func makeProduct<Node: JSONNode>(_ element: Node, index: Int, at path: JSONPath, of block: SegmentifyBlock<Node>, report: inout DecodingReport) -> RawProduct? {
        work.decoded += 1
        do {
            return try element.rawProduct(at: path)
        } catch {
            report.add(ProductFailure(index: index, productId: element["productId"]?.scalarText, instanceId: block.instanceId, path: error.path, reason: error.message))
            return nil
        }
    }
}
