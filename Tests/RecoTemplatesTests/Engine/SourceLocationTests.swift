import Foundation
import Testing
import RecoKitTesting
@testable import RecoTemplates

/// `SourceText.location(of:)` goes on from the last place asked (the compiler asks for every partial and
/// parent, in order; counting from the start each time made 28,000 partials in a 200 KB template take 13 s
/// to compile). The places must be exactly those counted from the start, in any order, whatever the text:
/// several lines, CR LF, multi-byte and combining characters, a prepended mark before ASCII.
@Suite("Template source locations: line and column of any offset, asked in any order")
struct SourceLocationTests {
    static let seed: UInt64 = {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_LOCATION_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("SourceLocationTests seed: \(seed) (replay: RECOKIT_LOCATION_SEED=\(seed) swift test --filter SourceLocationTests)")
        return seed
    }()

    /// Counted from the start: what `location(of:)` answered before it kept its place.
    func counted(_ bytes: [UInt8], _ offset: Int) -> (line: Int, column: Int) {
        let end = min(offset, bytes.count)
        let before = bytes[..<end]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return (line, String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1)
    }

    @Test func everyOffsetInAnyOrderIsWhereCountingFromTheStartPutsIt() {
        var random = SeededRandom(seed: Self.seed)
        let pieces = ["{{", "}}", "a", " ", "\n", "\r\n", "\r", "é", "e\u{301}", "\u{600}{", "🇹🇷", "👩‍👩‍👧", "\u{915}\u{94D}\u{937}", "x"]
        var mismatches: [String] = []
        for round in 0..<200 {
            let text = (0..<Int.random(in: 0...60, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
            let source = SourceText(text, name: "t")
            let bytes = Array(text.utf8)
            var offsets = (0..<Int.random(in: 1...30, using: &random)).map { _ in Int.random(in: 0...(bytes.count + 2), using: &random) }
            if round % 2 == 0 { offsets.sort() }  // the compiler's order; the other half in any order
            for offset in offsets {
                let place = source.location(of: offset)
                let expected = counted(bytes, offset)
                if place.line != expected.line || place.column != expected.column || place.template != "t" {
                    mismatches.append("\(text.debugDescription) at \(offset): \(place.line):\(place.column), expected \(expected.line):\(expected.column)")
                }
            }
        }
        #expect(mismatches.isEmpty, "RECOKIT_LOCATION_SEED=\(Self.seed): \(mismatches.prefix(3))")
    }

    @Test func manyPartialsCompileWithTheirPlaces() throws {
        let template = try Template(String(repeating: "é{{>p}}\n", count: 3) + String(repeating: "{{>p}}", count: 20_000), name: "many")
        #expect(Set(template.includedNames) == ["p"])
        // A library without "p" refuses the first reference, at its place.
        let failure = #expect(throws: TemplateError.self) { try TemplateLibrary(compiled: [template]) }
        #expect(failure?.description.hasPrefix("many:1:2: unknown partial \"p\"") == true, "\(String(describing: failure))")
    }
}
