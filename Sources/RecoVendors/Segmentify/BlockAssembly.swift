/// Assembles the products of Segmentify blocks, one reply at a time, by the rule of Segmentify's own
/// web library in its deterministic (not shuffled) mode.
///
/// For each block, in the order of the reply:
/// 1. **Static items** (`recommendedProducts["RECOMMENDATION_SOURCE_STATIC_ITEMS"]`, or element 0 of the
///    v3 array form) come first, in order, each unless the same productId is already in the block.
///    Static items never count as shown for later blocks (the web library does not record them).
/// 2. **Dynamic items** follow, in the order of `dynamicItems`. A source whose `itemCount` is 0 (or not
///    a whole number, which counts as 0) or whose product list is missing is skipped: it adds nothing,
///    not even a share to carry over. Otherwise its count is added to a running **deficit**, and the
///    source takes products from its list, in order, while the deficit is above zero; each product
///    taken lowers the deficit by one. A source thus takes its own count, plus whatever earlier sources
///    were short of: with counts 4 and 4, a source that had only 1 product leaves a deficit of 3, and
///    the next source takes 4 + 3 = 7. A present but empty list still adds its count, so its whole
///    share carries over. Static items do not lower the deficit.
/// 3. **Elimination** (`params.elimination` `ELIMINATE_DUPLICATES` or `ELIMINATE_PREVIOUS`): a dynamic
///    product is skipped (and reported as ``DecodingNotice/Kind/duplicateEliminated``) when its
///    productId is already in this block, or when an earlier block of the same reply (any inner
///    `responses` array) showed it. Products of `RECOMMENDATION_SOURCE_LAST_VISITED` and
///    `RECOMMENDATION_EVENT_DATA` are exempt from the second test and never count as shown for later
///    blocks. Every block records the dynamic products it shows, whatever its own mode. With
///    `NO_ELIMINATION`, no `elimination`, or an unknown mode, nothing is skipped, so a product may
///    appear twice. A skipped product does not lower the deficit: the source looks further down its list.
/// 4. A product that is not an object or has no usable `productId` is not shown: it is reported as a
///    ``ProductFailure`` with its path, and it does not lower the deficit either.
/// 5. A block that ends up with no products is not shown (the caller reports it).
struct BlockAssembly: Sendable {
    /// productIds shown by the blocks assembled so far (exempt sources and static items excepted).
    private(set) var shown: Set<String> = []

    /// The products of `block` in order, with their paths; failures and eliminations go to `report`.
    mutating func assemble(_ block: SegmentifyBlock, report: inout DecodingReport) -> [(RawProduct, JSONPath)] {
        var products: [(RawProduct, JSONPath)] = []
        var inBlock: Set<String> = []

        if let list = block.staticProducts {
            for (index, element) in list.elements.enumerated() {
                let path = list.path.appending(index: index)
                guard let product = Self.product(element, index: index, at: path, of: block, report: &report) else { continue }
                if inBlock.contains(product.productId) {
                    report.notices.append(DecodingNotice(.duplicateEliminated, at: path, "static item \(product.productId) of \(block.instanceId) is already in the block"))
                    continue
                }
                inBlock.insert(product.productId)
                products.append((product, path))
            }
        }

        let eliminates = block.elimination.eliminates
        var deficit = 0
        for source in block.sources {
            guard source.item.itemCount > 0, let list = source.list else { continue }
            deficit += source.item.itemCount
            let exempt = source.item.isExempt
            for (index, element) in list.elements.enumerated() {
                guard deficit > 0 else { break }
                let path = list.path.appending(index: index)
                guard let product = Self.product(element, index: index, at: path, of: block, report: &report) else { continue }
                let id = product.productId
                if eliminates {
                    if inBlock.contains(id) {
                        report.notices.append(DecodingNotice(.duplicateEliminated, at: path, "product \(id) is already in \(block.instanceId)"))
                        continue
                    }
                    if !exempt && shown.contains(id) {
                        report.notices.append(DecodingNotice(.duplicateEliminated, at: path, "product \(id) was already shown by an earlier block, so \(block.instanceId) leaves it out"))
                        continue
                    }
                }
                inBlock.insert(id)
                if !exempt { shown.insert(id) }
                products.append((product, path))
                deficit -= 1
            }
        }
        return products
    }

    private static func product(_ element: JSONValue, index: Int, at path: JSONPath, of block: SegmentifyBlock, report: inout DecodingReport) -> RawProduct? {
        do {
            return try RawProduct(element, at: path)
        } catch {
            report.failures.append(ProductFailure(index: index, productId: element["productId"]?.scalarText, instanceId: block.instanceId, path: error.path, reason: error.message))
            return nil
        }
    }
}
