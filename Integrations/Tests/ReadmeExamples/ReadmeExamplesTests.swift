import Foundation
import Testing

/// The README's blocks that use this package are compiled here: each is a file of this target, word for
/// word. The root package's snippet test leaves exactly these blocks to this one.
@Suite("README examples of the companion package")
struct ReadmeExamplesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let readme = folder.appendingPathComponent("../../../README.md").standardizedFileURL

    /// Every `<!-- compiled in Integrations: Tests/ReadmeExamples/NAME.swift -->` block of the README,
    /// as (file name, code).
    static func markedBlocks() throws -> [(file: String, code: String)] {
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        let note = "<!-- compiled in Integrations: Tests/ReadmeExamples/"
        var blocks: [(String, String)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix(note) {
            let file = String(line.dropFirst(note.count).prefix { $0 != " " })
            guard index + 1 < lines.count, lines[index + 1] == "```swift",
                  let close = lines[(index + 2)...].firstIndex(of: "```") else {
                Issue.record("README.md line \(index + 1): the note is not followed by a swift block")
                continue
            }
            blocks.append((file, lines[(index + 2)..<close].joined(separator: "\n") + "\n"))
        }
        return blocks
    }

    @Test func everyMarkedBlockIsAFileOfThisTargetWordForWord() throws {
        let blocks = try Self.markedBlocks()
        #expect(blocks.count >= 2, "README.md marks \(blocks.count) blocks for this package")
        for (file, code) in blocks {
            let source = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            // The file's first line says what it is; the rest is the block.
            let body = source.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().joined()
            #expect(body == code, "Tests/ReadmeExamples/\(file) differs from its README block")
        }
    }

    /// Every ```` ```swift ```` block of a DocC article under this package's Sources/ (`*.docc/*.md`) is,
    /// line for line, a run of lines of DocCArticleExamples.swift, where it is compiled; and every metric
    /// an article's other blocks name (the alerts' PromQL) is a row of an article's table.
    @Test func everyDocCArticleExampleIsCompiledHere() throws {
        let sources = Self.folder.appendingPathComponent("../../Sources").standardizedFileURL
        let examples = try String(contentsOf: Self.folder.appendingPathComponent("DocCArticleExamples.swift"), encoding: .utf8)
            .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var found = 0
        var named: [(String, String)] = []
        var documented = ""
        for case let path as String in FileManager.default.enumerator(atPath: sources.path) ?? .init()
        where path.hasSuffix(".md") && path.contains(".docc/") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            documented += text
            let lines = text.components(separatedBy: "\n")
            var block: (swift: Bool, lines: [String])?
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard let current = block else {
                    if trimmed.hasPrefix("```") { block = (trimmed == "```swift", []) }
                    continue
                }
                guard trimmed == "```" else {
                    block = (current.swift, current.lines + [trimmed])
                    continue
                }
                block = nil
                guard current.swift else {
                    for line in current.lines where !line.hasPrefix("#") {
                        for word in line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) where word.hasPrefix("recokit_") {
                            named.append(("Sources/\(path):\(index + 1 - current.lines.count)", String(word)))
                        }
                    }
                    continue
                }
                found += 1
                let code = current.lines
                let compiled = (0...max(0, examples.count - code.count)).contains { Array(examples[$0..<min(examples.count, $0 + code.count)]) == code }
                #expect(compiled, "Sources/\(path):\(index + 1 - code.count): this example is not in DocCArticleExamples.swift word for word")
            }
        }
        #expect(found >= 1, "only \(found) swift blocks found in Integrations/Sources/*.docc")
        #expect(!named.isEmpty, "no metric named in the articles' other blocks (the alerts)")
        for (place, name) in named {
            let isRow = documented.contains("| `\(name)` |")
            #expect(isRow, "\(place): \(name) is not a row of the metrics table")
        }
    }

    /// Every ```` ```swift ```` block of a `///` comment under this package's Sources/ is, line for line,
    /// a run of lines of DocCommentExamples.swift, where it is compiled.
    @Test func everyDocCommentExampleIsCompiledHere() throws {
        let sources = Self.folder.appendingPathComponent("../../Sources").standardizedFileURL
        let examples = try String(contentsOf: Self.folder.appendingPathComponent("DocCommentExamples.swift"), encoding: .utf8)
            .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var found = 0
        for case let path as String in FileManager.default.enumerator(atPath: sources.path) ?? .init() where path.hasSuffix(".swift") {
            let lines = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            var block: [String]?
            for (index, line) in lines.enumerated() {
                if line == "/// ```swift" { block = []; continue }
                guard var current = block else { continue }
                if line == "/// ```" {
                    found += 1
                    let code = current.map { $0.trimmingCharacters(in: .whitespaces) }
                    let compiled = (0...max(0, examples.count - code.count)).contains { Array(examples[$0..<min(examples.count, $0 + code.count)]) == code }
                    #expect(compiled, "Sources/\(path):\(index + 1 - code.count): this example is not in DocCommentExamples.swift word for word")
                    block = nil
                } else {
                    current.append(String(line.dropFirst(3)))
                    block = current
                }
            }
        }
        #expect(found >= 2, "only \(found) `///` examples found under Integrations/Sources")
    }
}
