import Testing
import RecoVendors

/// One block assembled alone: the sources, and the product ids it must show.
struct AssemblyCase: Sendable, CustomTestStringConvertible {
    var name: String
    var block: ReplyBuilder.Block
    var expected: [String]
    var testDescription: String { name }
}

private typealias Source = ReplyBuilder.Source

private func ids(_ prefix: String, _ count: Int) -> [String] { (1...max(count, 1)).prefix(count).map { "\(prefix)\($0)" } }

private let singleBlockCases: [AssemblyCase] = [
    AssemblyCase(name: "one source takes its count",
                 block: .init(sources: [Source(source: "A", count: 4, ids: ids("a", 6))]),
                 expected: ids("a", 4)),
    AssemblyCase(name: "itemCount as a string is the same as a number",
                 block: .init(sources: [Source(source: "A", count: "3", ids: ids("a", 6))]),
                 expected: ids("a", 3)),
    AssemblyCase(name: "a short source's share carries over to the next",
                 block: .init(sources: [Source(source: "A", count: 4, ids: ["a1"]), Source(source: "B", count: 4, ids: ids("b", 10))]),
                 expected: ["a1"] + ids("b", 7)),
    AssemblyCase(name: "a long source does not make up for a later short one",
                 block: .init(sources: [Source(source: "A", count: 4, ids: ids("a", 8)), Source(source: "B", count: 4, ids: ["b1", "b2"])]),
                 expected: ids("a", 4) + ["b1", "b2"]),
    AssemblyCase(name: "shares of two short sources add up for the third",
                 block: .init(sources: [Source(source: "A", count: 2, ids: ["a1"]), Source(source: "B", count: 2, ids: []), Source(source: "C", count: 2, ids: ids("c", 9))]),
                 expected: ["a1"] + ids("c", 5)),
    AssemblyCase(name: "a deficit filled exactly stops the next source at its own count",
                 block: .init(sources: [Source(source: "A", count: 2, ids: ids("a", 5)), Source(source: "B", count: 2, ids: ids("b", 5))]),
                 expected: ["a1", "a2", "b1", "b2"]),
    AssemblyCase(name: "a carried deficit that the last source cannot fill leaves the block short",
                 block: .init(sources: [Source(source: "A", count: 3, ids: ["a1"]), Source(source: "B", count: 3, ids: ["b1", "b2", "b3", "b4"])]),
                 expected: ["a1", "b1", "b2", "b3", "b4"]),
    AssemblyCase(name: "a present but empty list carries its whole share",
                 block: .init(sources: [Source(source: "A", count: 3, ids: []), Source(source: "B", count: 2, ids: ids("b", 9))]),
                 expected: ids("b", 5)),
    AssemblyCase(name: "a missing list is skipped and carries nothing",
                 block: .init(sources: [Source(source: "A", count: 3, ids: nil), Source(source: "B", count: 2, ids: ids("b", 9))]),
                 expected: ids("b", 2)),
    AssemblyCase(name: "count 0 is skipped",
                 block: .init(sources: [Source(source: "A", count: 0, ids: ids("a", 3)), Source(source: "B", count: "2", ids: ids("b", 3))]),
                 expected: ids("b", 2)),
    AssemblyCase(name: "an unparsable count is 0",
                 block: .init(sources: [Source(source: "A", count: "dört", ids: ids("a", 3)), Source(source: "B", count: 1, ids: ids("b", 3))]),
                 expected: ["b1"]),
    AssemblyCase(name: "a missing count is 0",
                 block: .init(sources: [Source(source: "A", count: nil, ids: ids("a", 3))]),
                 expected: []),
    AssemblyCase(name: "a source without a time frame is keyed by its name alone",
                 block: .init(sources: [Source(source: "RECOMMENDATION_COLLABORATIVE_FILTERING", timeFrame: nil, count: 2, ids: ids("c", 3))]),
                 expected: ["c1", "c2"]),
    AssemblyCase(name: "static items come first, once each, and do not lower the deficit",
                 block: .init(staticIds: ["s1", "s2", "s1"], sources: [Source(source: "A", count: 2, ids: ids("a", 4))]),
                 expected: ["s1", "s2", "a1", "a2"]),
    AssemblyCase(name: "static items alone",
                 block: .init(staticIds: ["s1", "s2"]),
                 expected: ["s1", "s2"]),
    AssemblyCase(name: "without elimination a product may appear twice",
                 block: .init(staticIds: ["x"], sources: [Source(source: "A", count: 2, ids: ["x", "y"]), Source(source: "B", count: 2, ids: ["y", "z"])]),
                 expected: ["x", "x", "y", "y", "z"]),
    AssemblyCase(name: "NO_ELIMINATION is the same as none",
                 block: .init(elimination: "NO_ELIMINATION", sources: [Source(source: "A", count: 2, ids: ["x", "y"]), Source(source: "B", count: 2, ids: ["y", "z"])]),
                 expected: ["x", "y", "y", "z"]),
    AssemblyCase(name: "ELIMINATE_DUPLICATES skips what is in the block and looks further",
                 block: .init(elimination: "ELIMINATE_DUPLICATES", staticIds: ["x"], sources: [Source(source: "A", count: 2, ids: ["x", "y", "w"]), Source(source: "B", count: 2, ids: ["y", "z", "v", "u"])]),
                 expected: ["x", "y", "w", "z", "v"]),
    AssemblyCase(name: "ELIMINATE_PREVIOUS also skips in-block duplicates, even from an exempt source",
                 block: .init(elimination: "ELIMINATE_PREVIOUS", sources: [Source(source: "A", count: 2, ids: ["x", "y"]), Source(source: "RECOMMENDATION_SOURCE_LAST_VISITED", count: 2, ids: ["x", "q", "r"])]),
                 expected: ["x", "y", "q", "r"]),
    AssemblyCase(name: "an unknown elimination mode eliminates nothing",
                 block: .init(elimination: "ELIMINATE_SOMETIMES", sources: [Source(source: "A", count: 2, ids: ["x", "x"])]),
                 expected: ["x", "x"]),
    AssemblyCase(name: "v3: element 0 static, element i for dynamic item i-1, with carry-over",
                 block: .init(staticIds: ["s1"], sources: [Source(source: "A", count: "3", ids: ["a1"]), Source(source: "B", count: 1, ids: ids("b", 6))], v3: true),
                 expected: ["s1", "a1", "b1", "b2", "b3"]),
    AssemblyCase(name: "v3: a null list is skipped",
                 block: .init(sources: [Source(source: "A", count: 2, ids: nil), Source(source: "B", count: 1, ids: ids("b", 6))], v3: true),
                 expected: ["b1"]),
]

@Suite("Segmentify block assembly")
struct BlockAssemblyTests {
    @Test(arguments: singleBlockCases)
    func assemblesOneBlock(_ test: AssemblyCase) throws {
        let reply = try SegmentifyRecommendations.decode(ReplyBuilder.reply([[test.block]]))
        #expect(reply.widgets.first?.products.map(\.productId) ?? [] == test.expected)
        #expect(reply.widgets.first?.items.map(\.position) ?? [] == Array(1...max(test.expected.count, 1)).prefix(test.expected.count).map { $0 })
        #expect(reply.report.failures.isEmpty)
    }

    /// Several blocks in one reply: what earlier blocks showed, and what later blocks may show.
    @Test(arguments: [
        ("a later eliminating block skips what an earlier one showed",
         [[ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "A", count: 2, ids: ["p", "q"])]),
           ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_PREVIOUS", sources: [Source(source: "B", count: 2, ids: ["p", "r", "q", "s"])])]],
         ["one": ["p", "q"], "two": ["r", "s"]]),
        ("a later block without elimination shows it again",
         [[ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "A", count: 1, ids: ["p"])]),
           ReplyBuilder.Block(instanceId: "two", sources: [Source(source: "B", count: 2, ids: ["p", "r"])])]],
         ["one": ["p"], "two": ["p", "r"]]),
        ("LAST_VISITED products of a later block are exempt",
         [[ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "A", count: 1, ids: ["p"])]),
           ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_DUPLICATES", sources: [Source(source: "RECOMMENDATION_SOURCE_LAST_VISITED", timeFrame: "THIS_WEEK", count: 2, ids: ["p", "r"])])]],
         ["one": ["p"], "two": ["p", "r"]]),
        ("EVENT_DATA products of a later block are exempt",
         [[ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "A", count: 1, ids: ["p"])]),
           ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_DUPLICATES", sources: [Source(source: "RECOMMENDATION_EVENT_DATA", timeFrame: nil, count: 2, ids: ["p", "r"])])]],
         ["one": ["p"], "two": ["p", "r"]]),
        ("LAST_VISITED products never count as shown",
         [[ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "RECOMMENDATION_SOURCE_LAST_VISITED", count: 1, ids: ["p"])]),
           ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_DUPLICATES", sources: [Source(source: "B", count: 2, ids: ["p", "r"])])]],
         ["one": ["p"], "two": ["p", "r"]]),
        ("static items never count as shown",
         [[ReplyBuilder.Block(instanceId: "one", staticIds: ["p"]),
           ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_DUPLICATES", sources: [Source(source: "B", count: 2, ids: ["p", "r"])])]],
         ["one": ["p"], "two": ["p", "r"]]),
        ("elimination reaches across inner responses arrays",
         [[ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "A", count: 1, ids: ["p"])])],
          [ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_DUPLICATES", sources: [Source(source: "B", count: 1, ids: ["p", "r"])])]],
         ["one": ["p"], "two": ["r"]]),
        ("what blocks of either mode showed is skipped by every later eliminating block",
         [[ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "A", count: 1, ids: ["p"])]),
           ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_DUPLICATES", sources: [Source(source: "B", count: 1, ids: ["p", "r"])]),
           ReplyBuilder.Block(instanceId: "three", elimination: "NO_ELIMINATION", sources: [Source(source: "C", count: 2, ids: ["r", "s"])]),
           ReplyBuilder.Block(instanceId: "four", elimination: "ELIMINATE_PREVIOUS", sources: [Source(source: "D", count: 3, ids: ["p", "r", "s", "t"])])]],
         ["one": ["p"], "two": ["r"], "three": ["r", "s"], "four": ["t"]]),
        ("an eliminated product does not use up the count, so the carry-over still fills",
         [[ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "A", count: 2, ids: ["p", "q"])]),
           ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_DUPLICATES", sources: [Source(source: "B", count: 2, ids: ["p", "q"]), Source(source: "C", count: 1, ids: ["q", "x", "y", "z", "w"])])]],
         ["one": ["p", "q"], "two": ["x", "y", "z"]]),
    ] as [(String, [[ReplyBuilder.Block]], [String: [String]])])
    func assemblesAcrossBlocks(_ name: String, _ groups: [[ReplyBuilder.Block]], _ expected: [String: [String]]) throws {
        let reply = try SegmentifyRecommendations.decode(ReplyBuilder.reply(groups))
        #expect(ReplyBuilder.ids(reply) == expected, "\(name)")
    }

    @Test func eliminatedProductsAndEmptyBlocksAreReported() throws {
        let reply = try SegmentifyRecommendations.decode(ReplyBuilder.reply([[
            ReplyBuilder.Block(instanceId: "one", sources: [Source(source: "A", count: 2, ids: ["p", "q"])]),
            ReplyBuilder.Block(instanceId: "two", elimination: "ELIMINATE_DUPLICATES", sources: [Source(source: "B", count: 2, ids: ["q", "p"])]),
        ]]))
        #expect(reply.widgets.map(\.instanceId) == ["one"])
        let eliminated = reply.report.notices(.duplicateEliminated)
        #expect(eliminated.map(\.path.description) == [
            #"$.responses[0][1].params.recommendedProducts["B|TODAY|NONE"][0]"#,
            #"$.responses[0][1].params.recommendedProducts["B|TODAY|NONE"][1]"#,
        ])
        #expect(reply.report.notices(.emptyWidget).map(\.path.description) == ["$.responses[0][1]"])
    }

    @Test func skippedSourcesAndUnknownModesAreReported() throws {
        var block = ReplyBuilder.Block(elimination: "ELIMINATE_SOMETIMES", sources: [
            Source(source: "A", count: 3, ids: nil), Source(source: "B", count: "üç", ids: ["b1"]), Source(source: "C", count: 1, ids: ["c1"]),
        ])
        var reply = try SegmentifyRecommendations.decode(ReplyBuilder.reply([[block]]))
        let skipped = reply.report.notices(.skippedSource).map(\.path.description)
        #expect(skipped == ["$.responses[0][0].params.dynamicItems(json)[0]", "$.responses[0][0].params.dynamicItems(json)[1].itemCount"])
        #expect(reply.report.notices(.unknownElimination).map(\.path.description) == ["$.responses[0][0].params.elimination"])
        #expect(reply.widgets.first?.products.map(\.productId) == ["c1"])

        block.v3 = true
        block.sources = [Source(source: "A", count: 1, ids: ["a1"])]
        var json = ReplyBuilder.reply([[block]])
        // one list more than there are dynamic items
        if case .object(var root) = json, case .array(var groups) = root["responses"], case .array(var items) = groups[0],
           case .object(var item) = items[0], case .object(var params) = item["params"], case .array(var lists) = params["recommendedProducts"] {
            lists.append([ReplyBuilder.product("extra")])
            params["recommendedProducts"] = .array(lists); item["params"] = .object(params); items[0] = .object(item)
            groups[0] = .array(items); root["responses"] = .array(groups); json = .object(root)
        }
        reply = try SegmentifyRecommendations.decode(json)
        #expect(reply.widgets.first?.products.map(\.productId) == ["a1"])
        #expect(reply.report.notices(.skippedSource).map(\.path.description) == ["$.responses[0][0].params.recommendedProducts[2]"])
    }

    @Test func listsThatNoDynamicItemAsksForAreReported() throws {
        let json = try JSONValue(parsing: #"{"statusCode":"SUCCESS","responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","dynamicItems":"[{\"recommendationSource\":\"A\",\"itemCount\":1}]","recommendedProducts":{"A":[{"productId":"1"}],"ORPHAN|TODAY|NONE":[{"productId":"2"}]}}}]]}"#)
        let reply = try SegmentifyRecommendations.decode(json)
        #expect(reply.widgets.first?.products.map(\.productId) == ["1"])
        #expect(reply.report.notices(.skippedSource).map(\.path.description) == [#"$.responses[0][0].params.recommendedProducts["ORPHAN|TODAY|NONE"]"#])
    }
}
