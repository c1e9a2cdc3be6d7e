import Foundation

/// One ```` ```swift ```` block of the documentation, exactly as written there, and where it is.
///
/// Read straight from the files (README.md, every DocC catalog's articles, a source file's `///`
/// comments), so a test compiles what a reader sees: there is no copy that could drift.
struct DocumentationSnippet: CustomStringConvertible, Sendable {
    /// The file, relative to the package folder.
    let file: String
    /// The line of the opening fence.
    let line: Int
    /// The code between the fences, each line as written (without a doc comment's `/// `).
    let code: String
    /// The line just before the opening fence, when it is an HTML comment (`<!-- … -->`): a note on the
    /// block, such as where else it is compiled.
    var note: String? = nil

    var description: String { "\(file):\(line)" }

    /// The package folder.
    static let packageRoot = RecokitChildProcess.packageRoot

    /// Every Swift block of a Markdown file.
    static func inMarkdown(_ file: String) throws -> [DocumentationSnippet] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        return blocks(text.components(separatedBy: "\n"), file: file)
    }

    /// Every Swift block in the `///` comments of a Swift source file.
    static func inDocComments(_ file: String) throws -> [DocumentationSnippet] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n").map { line -> String in
            let trimmed = line.drop(while: { $0 == " " })
            guard trimmed.hasPrefix("///") else { return "" }
            let rest = trimmed.dropFirst(3)
            return String(rest.hasPrefix(" ") ? rest.dropFirst() : rest)
        }
        return blocks(lines, file: file)
    }

    /// The Markdown files of every DocC catalog under Sources/, sorted.
    static func doccArticles() -> [String] {
        let sources = packageRoot.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            if path.hasSuffix(".md"), path.contains(".docc/") { files.append("Sources/" + path) }
        }
        return files.sorted()
    }

    private static func blocks(_ lines: [String], file: String) -> [DocumentationSnippet] {
        var snippets: [DocumentationSnippet] = []
        var open: (line: Int, code: [String])?
        for (index, line) in lines.enumerated() {
            if let block = open {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    let before = block.line >= 2 ? lines[block.line - 2].trimmingCharacters(in: .whitespaces) : ""
                    snippets.append(DocumentationSnippet(file: file, line: block.line, code: block.code.joined(separator: "\n") + "\n",
                                                         note: before.hasPrefix("<!--") ? before : nil))
                    open = nil
                } else {
                    open?.code.append(line)
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```swift" {
                open = (index + 1, [])
            }
        }
        return snippets
    }
}
