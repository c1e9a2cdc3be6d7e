import Foundation

/// Every ```` ```swift ```` block of the `///` comments under Sources/, gathered into one program so
/// that a single `swiftc -typecheck` checks them all (one compiler start instead of one per block).
///
/// The imports of every block go to the top; each block becomes the body of its own function, whose
/// parameters are the values a fragment may take as given (``givenParameters``). A block that declares
/// an extension or a protocol (which a function body cannot hold) stays at the top level. A compiler
/// message is mapped back to the block's file and line (``explain(_:)``).
struct DocCommentProgram {
    /// The program's source.
    let source: String
    /// For each line of ``source`` (1-based) copied from a block: the file and the line it came from.
    let origins: [Int: String]

    /// The modules every block sees, whether or not it imports them.
    static let baseImports = ["Foundation", "RecoKit", "RecoDestinations", "RecoHTTP", "RecoPage", "RecoTemplates", "RecoVendors", "RecoTracking"]

    /// Declarations at the top level that fragments take as given.
    static let givenDeclarations = """
        func given<T>() -> T { fatalError("only type-checked") }
        func serveRequests(tracking: Tracker) async throws {}
        /// A shop's own product model, as the examples name it.
        struct Product: RecommendableProduct {
            let productId: String
            let name: String
            let brand: String?
        }
        typealias Shoe = Product
        """

    /// The values every block's function receives: names a fragment uses without declaring them.
    static let givenParameters = """
        data: Data, json: JSONValue, reply: Recommendations<RawProduct>, widget: Widget<RawProduct>, \
        variant: Widget<RawProduct>, raw: RawProduct, \
        tracker: Tracker, destination: any TrackingDestination, interactions: [Interaction], click: Interaction, \
        context: InteractionContext, cookie: String, visitorCookie: String, headers: [(name: String, value: String)], \
        common: SegmentifyCommonFields, visitors: SegmentifyVisitors, userId: String, sessionId: String, \
        productView: SegmentifyProductView, segmentIds: [String], purchase: Purchase, \
        client: RecommendationsClient, segmentify: RecommendationsRequest, reteno: RecommendationsRequest, \
        recoms: RetenoRecomsRequest, renderer: WidgetRenderer, template: Template, value: TemplateValue, \
        templatesFolder: URL, apiKey: String, key: String, url: URL, dataCenter: URL, \
        request: VendorRequest, transport: any Transport
        """

    init(_ snippets: [DocumentationSnippet]) {
        var imports = Set(Self.baseImports.map { "import \($0)" })
        var lines: [String] = []
        var origins: [Int: String] = [:]
        for (index, snippet) in snippets.enumerated() {
            let code = snippet.code.components(separatedBy: "\n")
            var body: [(String, Int)] = []
            for (offset, line) in code.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("import "), let module = trimmed.dropFirst(7).split(separator: " ").first {
                    // An import under `#if canImport(M)` (FoundationNetworking) keeps its condition.
                    let before = offset > 0 ? code[offset - 1].trimmingCharacters(in: .whitespaces) : ""
                    imports.insert(before.hasPrefix("#if canImport(") ? "\(before)\nimport \(module)\n#endif" : "import \(module)")
                    body.append(("", offset))
                } else {
                    body.append((line, offset))
                }
            }
            // A test function is a top-level declaration too.
            let atTopLevel = code.contains { $0.hasPrefix("extension ") || $0.hasPrefix("protocol ") || $0.hasPrefix("@main") || $0.hasPrefix("@Test") }
            lines.append("// \(snippet)")
            if !atTopLevel { lines.append("func snippet\(index)(\(Self.givenParameters)) async throws {") }
            for (line, offset) in body {
                lines.append(line)
                origins[lines.count] = "\(snippet.file):\(snippet.line + 1 + offset)"
            }
            if !atTopLevel { lines.append("}") }
        }
        let head = imports.sorted() + [Self.givenDeclarations]
        let shift = head.joined(separator: "\n").components(separatedBy: "\n").count
        source = (head + lines).joined(separator: "\n") + "\n"
        self.origins = Dictionary(uniqueKeysWithValues: origins.map { ($0.key + shift, $0.value) })
    }

    /// The compiler's output with each `main.swift:LINE:COLUMN:` of a copied line replaced by the block's
    /// own file and line, so a failure points at the comment to fix.
    func explain(_ output: String) -> String {
        output.components(separatedBy: "\n").map { line -> String in
            guard let range = line.range(of: #"main\.swift:[0-9]+:"#, options: .regularExpression) else { return line }
            let number = Int(line[range].dropFirst("main.swift:".count).dropLast()) ?? 0
            guard let origin = origins[number] else { return line }
            let start = line[..<range.lowerBound].lastIndex(of: " ").map { line.index(after: $0) } ?? line.startIndex
            return String(line[..<start]) + origin + ":" + line[range.upperBound...]
        }.joined(separator: "\n")
    }

    /// Every Swift source file of the library modules under Sources/, relative to the package folder,
    /// sorted. The command line's own module is left out: no program can import it, so its comments are
    /// notes for the people who work on it, not examples to follow.
    static func sourceFiles() -> [String] {
        let sources = DocumentationSnippet.packageRoot.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            if path.hasSuffix(".swift"), !path.hasPrefix("RecoKitCLI/") { files.append("Sources/" + path) }
        }
        return files.sorted()
    }
}
