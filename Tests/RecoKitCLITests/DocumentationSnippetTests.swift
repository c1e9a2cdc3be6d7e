import RecoDestinations
import Foundation
import Testing
import RecoKitTesting

/// Every Swift block of README.md, of the DocC catalogs and of the `///` comments under Sources/
/// compiles, read from the files themselves (nothing is copied into a test, so nothing can drift), and
/// the README's first example runs as a program of its own from a folder outside the package and prints
/// the output the README shows.
///
/// A README block must compile on its own, as a reader would paste it into a `main.swift`. A DocC
/// article may show a fragment that takes some values as given (a tracker, a visitor's context); each
/// such block is listed in ``givens`` with the declarations it assumes, which are compiled before it.
/// The `///` examples are fragments too; they are compiled together, in one run (``DocCommentProgram``).
@Suite("Documentation snippets", .serialized)   // one swiftc at a time: the machine is shared
struct DocumentationSnippetTests {
    /// Every block, in file order.
    static let snippets: [DocumentationSnippet] = {
        // README blocks that use the companion package (Integrations/) are compiled there, by its
        // ReadmeExamples target, which holds each one word for word and checks that it does.
        var all = ((try? DocumentationSnippet.inMarkdown("README.md")) ?? []).filter { $0.note?.hasPrefix(companionNote) != true }
        for file in DocumentationSnippet.doccArticles() { all += (try? DocumentationSnippet.inMarkdown(file)) ?? [] }
        return all
    }()

    /// The note before a README block that the companion package compiles.
    static let companionNote = "<!-- compiled in Integrations: "

    /// Values a fragment outside the README takes as given, by the fragment's first line of code.
    static let givens: [String: String] = [
        "struct Shoe: RecommendableProduct {": """
            import Foundation
            import RecoVendors
            let data = Data()
            """,
        "import RecoTracking": """
            import Foundation
            import RecoKit
            let apiKey = "key"
            let widget: Widget<RawProduct> = given()
            let context: InteractionContext = given()
            """,
        "import RecoDestinations   // the vendors' destinations; re-exports RecoTracking": """
            import Foundation
            import RecoKit
            let apiKey = "key"
            let widget: Widget<RawProduct> = given()
            let context: InteractionContext = given()
            """,
        "try await withThrowingDiscardingTaskGroup { group in": """
            import RecoTracking
            let tracker: Tracker = given()
            func serveRequests(tracking: Tracker) async throws {}
            """,
        "try tracker.track(SegmentifyPageView(category: .productPage, common: common))": """
            import Foundation
            import RecoDestinations
            let tracker: Tracker = given()
            let widget: Widget<RawProduct> = given()
            let common: SegmentifyCommonFields = given()
            """,
        "let store = try JournalStore(directory: URL(fileURLWithPath: \"/var/lib/shop/tracking/segmentify\"))": """
            import Foundation
            import RecoDestinations
            let url = URL(string: "https://gandalf.segmentify.com")!
            let key = "key"
            let widget: Widget<RawProduct> = given()
            let context: InteractionContext = given()
            """,
        "let cache = RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .seconds(240),": """
            import RecoPage
            import RecoTemplates
            struct Shoe: RecommendableProduct { let productId: String }
            struct Log { func notice(_ message: String) {} }
            let recoms: RetenoRecomsRequest = given()
            let bestSellers: [RawProduct] = given()
            let renderer = WidgetRenderer()
            let logger = Log()
            """,
    ]

    /// A value of any type, for type-checking only.
    static let givenFunction = "func given<T>() -> T { fatalError(\"only type-checked\") }\n"

    @Test func theReadmeAndEveryCatalogHaveSwiftBlocks() {
        #expect(Self.snippets.filter { $0.file == "README.md" }.count >= 4, "\(Self.snippets)")
        for catalog in ["RecoKit", "RecoTracking", "RecoTemplates", "RecoVendors", "RecoKitTesting"] {
            #expect(Self.snippets.contains { $0.file.hasPrefix("Sources/\(catalog)/\(catalog).docc/") }, "\(catalog).docc has no Swift block")
        }
    }

    /// A README block that imports a module of the companion package is marked as compiled there, and
    /// only such a block: nothing is left out of both packages' checks.
    @Test func readmeBlocksLeftToTheCompanionPackageAreExactlyThoseThatUseIt() throws {
        for snippet in try DocumentationSnippet.inMarkdown("README.md") {
            let usesCompanion = ["RecoKitAsyncHTTPClient", "RecoKitPostgres", "RecoKitMetrics"].contains { snippet.code.contains("import \($0)\n") }
            #expect(usesCompanion == (snippet.note?.hasPrefix(Self.companionNote) == true), "\(snippet): \(snippet.note ?? "no note")")
        }
    }

    /// Every `///` example of every file under Sources/ type-checks; all of them in one compiler run,
    /// each in its own function that receives the common values (``DocCommentProgram/givenParameters``).
    @Test func everyDocCommentExampleCompiles() async throws {
        var snippets: [DocumentationSnippet] = []
        for file in DocCommentProgram.sourceFiles() { snippets += try DocumentationSnippet.inDocComments(file) }
        #expect(snippets.count >= 80, "only \(snippets.count) `///` examples found under Sources/")
        let program = DocCommentProgram(snippets)
        let outcome = try await blockingWork { try SwiftCompiler.typeCheck(program.source, warnings: false) }  // a fragment may leave a value unused
        #expect(outcome.status == 0, "a `///` example does not compile:\n\(program.explain(outcome.output))")
    }

    @Test(arguments: snippets)
    func compiles(_ snippet: DocumentationSnippet) async throws {
        let firstLine = snippet.code.split(separator: "\n").first.map(String.init) ?? ""
        let given = snippet.file == "README.md" ? nil : Self.givens[firstLine]
        let source = given.map { Self.givenFunction + $0 + "\n" } ?? ""
        let outcome = try await blockingWork { try SwiftCompiler.typeCheck(source + snippet.code) }
        #expect(outcome.status == 0, "\(snippet) does not compile:\n\(outcome.output)\n--- the block:\n\(snippet.code)")
    }

    /// The first README example, built as a program with the package's libraries and run from a folder
    /// that is not the package's: it finds the sample payload, and prints what the README shows.
    @Test func theFirstReadmeExampleRunsFromAnyFolderAndPrintsWhatTheReadmeShows() async throws {
        let readme = try String(contentsOf: DocumentationSnippet.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try #require(Self.snippets.first { $0.file == "README.md" })
        let marker = "<!-- output of the example above -->\n```text\n"
        let start = try #require(readme.range(of: marker), "README.md has no marked output block")
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let expected = String(readme[start.upperBound..<end.lowerBound]) + "\n"

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-readme-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (built, program) = try await blockingWork { try SwiftCompiler.build(example.code, linking: ["RecoKit", "RecoHTTP", "RecoTemplates", "CRecoChecksum", "CRecoEscaping", "RecoTracking",
                                                                               "RecoVendors", "RecoKitTesting"], into: folder) }
        try #require(built.status == 0, "the example does not build:\n\(built.output)")

        let output = folder.appendingPathComponent("output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = program
        process.currentDirectoryURL = folder
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try await blockingWork { process.waitUntilExit() }
        try handle.close()
        let printed = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed == expected)
    }
}
