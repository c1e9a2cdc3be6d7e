import Foundation
import Testing
import RecoKit
@_spi(DecodingWork) import RecoVendors
import RecoKitTesting

/// Decoding a Segmentify reply costs work and memory linear in the reply, whatever its shape: doubling
/// any one dimension of a reply (its items, their itemCount, the products of a list, the copies of one
/// product, the blocks, the length of ids, the entries that are not products), or all of them at once,
/// at most about doubles both. Work is counted, not timed: the values decoding examined and the products
/// it made (``DecodingWork``), and every failure and notice it made, listed or only counted. Memory is
/// what the result holds: the report's listed entries and their words.
///
/// The products shown are left out of both: without elimination, items that name the same source show
/// its products once each (the vendor's rule), so they grow with items times products, bounded by
/// ``ReplyLimits``; each costs a copy of a product made once (``DecodingWork/decoded`` counts those).
///
/// Random shapes, seeded; the seed is printed, and `RECOKIT_ASSEMBLY_COST_SEED` replays it. Each
/// quadratic path of the old assembly (an item walking its source's list from the start, every product
/// passed over a new notice or failure, a lookup of each item's list) fails here.
@Suite("Segmentify decoding cost")
struct AssemblyCostTests {
    /// One reply's dimensions.
    struct Shape: CustomStringConvertible {
        var items: Int
        var itemCount: Int
        var products: Int
        var duplicates: Int
        var blocks: Int
        var idLength: Int
        var badProducts: Int
        /// How many sources the items of a block name in turn (1: every item reads one list).
        var sources: Int
        var elimination: Bool
        var v3: Bool

        var description: String {
            "items \(items), itemCount \(itemCount), products \(products), duplicates \(duplicates), blocks \(blocks), "
                + "idLength \(idLength), badProducts \(badProducts), sources \(sources), elimination \(elimination), v3 \(v3)"
        }

        /// The dimensions a test doubles, by name.
        nonisolated(unsafe) static let dimensions: [(String, WritableKeyPath<Shape, Int>)] = [
            ("items", \.items), ("itemCount", \.itemCount), ("products", \.products), ("duplicates", \.duplicates),
            ("blocks", \.blocks), ("idLength", \.idLength), ("badProducts", \.badProducts),
        ]

        func doubled(_ dimension: WritableKeyPath<Shape, Int>) -> Shape {
            var shape = self
            shape[keyPath: dimension] *= 2
            return shape
        }

        /// Every count of a block doubled at once, so that the reply's bytes double: not the blocks (each
        /// holds all the rest), nor the length of ids (longer ids and more of them multiply the bytes), nor
        /// in the v3 form the items (each has a list of its own).
        var allDoubled: Shape {
            Shape(items: v3 ? items : items * 2, itemCount: itemCount * 2, products: products * 2, duplicates: duplicates * 2,
                  blocks: blocks, idLength: idLength, badProducts: badProducts * 2, sources: sources, elimination: elimination, v3: v3)
        }
    }

    /// The reply of `shape`: blocks alike but for their products' ids, so that each costs the same (a
    /// block eliminating what earlier ones showed says more than the first; `BlockAssemblyTests` checks
    /// that rule). Each list holds the entries that are not products, then the products, then the copies
    /// of the first product; sources share ids, so a block with elimination leaves out what another
    /// source gave it. In the v3 form each item has its own list; otherwise items share their source's.
    static func reply(_ shape: Shape) -> Data {
        func id(_ block: Int, _ number: Int) -> String {
            let text = "p\(number)-b\(block)-"
            return text + String(repeating: "x", count: max(0, shape.idLength - text.count))
        }
        func list(_ block: Int) -> String {
            "[" + (Array(repeating: "{}", count: shape.badProducts)
                + (0..<shape.products).map { #"{"productId":"\#(id(block, $0))"}"# }
                + Array(repeating: #"{"productId":"\#(id(block, 0))"}"#, count: shape.duplicates)).joined(separator: ",") + "]"
        }
        let items = (0..<shape.items).map { #"{"recommendationSource":"S\#($0 % shape.sources)","itemCount":\#(shape.itemCount)}"# }
        let elimination = shape.elimination ? #","elimination":"ELIMINATE_DUPLICATES""# : ""
        let blocks = (0..<shape.blocks).map { number in
            let lists = shape.v3
                ? "[[]," + Array(repeating: list(number), count: shape.items).joined(separator: ",") + "]"
                : "{" + (0..<min(shape.sources, shape.items)).map { #""S\#($0)":\#(list(number))"# }.joined(separator: ",") + "}"
            return #"{"type":"recommendProducts","params":{"instanceId":"b\#(number)","actionId":"a\#(number)"\#(elimination),"dynamicItems":[\#(items.joined(separator: ","))],"recommendedProducts":\#(lists)}}"#
        }
        return Data(#"{"statusCode":"SUCCESS","responses":[[\#(blocks.joined(separator: ","))]]}"#.utf8)
    }

    /// Work and memory of decoding `shape`'s reply, as this suite counts them.
    static func cost(_ shape: Shape) throws -> (work: Int, memory: Int) {
        var work = DecodingWork()
        let reply = try SegmentifyRecommendations.decode(reply(shape), work: &work)
        let report = reply.report
        let memory = report.notices.reduce(0) { $0 + 64 + $1.message.utf8.count + $1.path.description.utf8.count }
            + report.failures.reduce(0) { $0 + 64 + $1.reason.utf8.count + $1.path.description.utf8.count }
        return (work.steps + report.failureCount + report.noticeCount, memory)
    }

    /// A shape whose items each ask for more than their list holds, so that the rule reads every list to
    /// its end: then the work of a linear decoder is proportional to the reply, and doubling a dimension
    /// cannot more than double it. (With smaller counts, later items read further into their own lists
    /// than earlier ones, by the rule: work still bounded by the reply, but not proportional to it.)
    static func randomShape(_ random: inout SeededRandom) -> Shape {
        let products = Int.random(in: 1...40, using: &random)
        let duplicates = Int.random(in: 1...40, using: &random)
        let badProducts = Int.random(in: 1...40, using: &random)
        let length = products + duplicates + badProducts
        return Shape(items: Int.random(in: 4...40, using: &random), itemCount: Int.random(in: length...(2 * length), using: &random),
                     products: products, duplicates: duplicates, blocks: Int.random(in: 2...4, using: &random),
                     idLength: Int.random(in: 4...40, using: &random), badProducts: badProducts, sources: Int.random(in: 1...3, using: &random),
                     elimination: Bool.random(using: &random), v3: Int.random(in: 0..<4, using: &random) == 0)
    }

    /// "About doubles": twice the cost and a quarter, for what changes by one with a count, and for later
    /// blocks, which eliminate what earlier ones showed and so say more per product than the first.
    static func atMostAboutDouble(_ after: Int, _ before: Int) -> Bool { after <= 2 * before + before / 4 + 8 }

    @Test("doubling any dimension of a reply at most about doubles its work and memory")
    func doublingADimensionAtMostDoubles() throws {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_ASSEMBLY_COST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("AssemblyCostTests: seed \(seed) (RECOKIT_ASSEMBLY_COST_SEED to replay)")
        var random = SeededRandom(seed: seed)
        for _ in 0..<40 {
            let shape = Self.randomShape(&random)
            let base = try Self.cost(shape)
            var doublings = Shape.dimensions.map { ($0.0, shape.doubled($0.1)) }
            doublings.append(("every count", shape.allDoubled))
            for (name, bigger) in doublings {
                let cost = try Self.cost(bigger)
                #expect(Self.atMostAboutDouble(cost.work, base.work),
                        "doubling \(name): work \(base.work) -> \(cost.work) for \(shape) (seed \(seed))")
                #expect(Self.atMostAboutDouble(cost.memory, base.memory),
                        "doubling \(name): memory \(base.memory) -> \(cost.memory) for \(shape) (seed \(seed))")
            }
        }
    }

    /// The issue's replies: 2,000 items of itemCount 1 over 2,000 copies of one product with elimination
    /// on (4 million notices before), and 2,000 items over 2,000 entries that are not products (4 million
    /// failures). Each position is examined about once, and the report lists at most its bound.
    @Test("the issue's replies cost thousands of steps, not millions", arguments: [true, false])
    func theIssuesReplies(elimination: Bool) throws {
        for shape in [
            Shape(items: 2_000, itemCount: 1, products: 0, duplicates: 2_000, blocks: 1, idLength: 3, badProducts: 0, sources: 1,
                  elimination: elimination, v3: false),
            Shape(items: 2_000, itemCount: 1, products: 0, duplicates: 0, blocks: 1, idLength: 3, badProducts: 2_000, sources: 1,
                  elimination: elimination, v3: false),
        ] {
            var work = DecodingWork()
            let reply = try SegmentifyRecommendations.decode(Self.reply(shape), work: &work)
            #expect(work.steps < 20_000, "\(work) for \(shape)")
            #expect(reply.report.notices.count <= DecodingReport.mostListed && reply.report.failures.count <= DecodingReport.mostListed)
            // Nothing disappears in silence: every entry passed over is counted.
            if shape.badProducts > 0 { #expect(reply.report.failureCount == 2_000) }
        }
    }

    /// Items that share a list take the products the rule gives them: with elimination each item goes on
    /// where the last one stopped; without, each takes the list's first products again.
    @Test("items that share a source assemble as the rule says", arguments: [true, false])
    func sharedSourcesKeepTheRule(elimination: Bool) throws {
        let shape = Shape(items: 3, itemCount: 2, products: 5, duplicates: 0, blocks: 1, idLength: 1, badProducts: 1, sources: 1,
                          elimination: elimination, v3: false)
        let reply = try SegmentifyRecommendations.decode(Self.reply(shape))
        let ids = reply.widgets.first?.products.map(\.productId) ?? []
        let expected = elimination ? ["p0", "p1", "p2", "p3", "p4"] : ["p0", "p1", "p0", "p1", "p0", "p1"]
        #expect(ids == expected.map { "\($0)-b0-" })
        // The entry that is not a product is reported once, not once per item.
        #expect(reply.report.failureCount == 1)
    }
}
