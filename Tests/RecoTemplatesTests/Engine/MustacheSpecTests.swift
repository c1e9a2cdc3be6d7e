import Foundation
import RecoTemplates
import Testing

/// One test of the official Mustache specification, read from `../shared/mustache-spec/` beside the package.
struct SpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let template: String
    let data: JSONValue
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(file): \(name)" }
    var id: String { "\(file)/\(name)" }

    /// Where the specification's JSON files are looked for: `$RECOKIT_MUSTACHE_SPEC` when set, else
    /// `../shared/mustache-spec/` beside the package folder.
    static let expectedFolder: URL = {
        if let path = ProcessInfo.processInfo.environment["RECOKIT_MUSTACHE_SPEC"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/mustache-spec", isDirectory: true)
    }()

    /// The folder holding the specification's JSON files, nil when it is not there (``MustacheSpecTests``
    /// then fails, saying where it looked: the suite never skips).
    static let folder: URL? = {
        FileManager.default.fileExists(atPath: expectedFolder.appendingPathComponent("sections.json").path) ? expectedFolder : nil
    }()

    static let coreFiles = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]
    static let optionalFiles = ["~inheritance", "~dynamic-names"]

    /// The tests that rely on the specification's rule that a missing partial or parent renders as empty;
    /// RecoKit refuses those by default, so they run with `MissingPartials.renderEmpty`.
    static let needEmptyMissingPartials: Set<String> = [
        "partials/Failed Lookup",
        "~dynamic-names/Failed Lookup - Partial",
    ]

    static func load(_ files: [String]) -> [SpecCase] {
        guard let folder else { return [] }
        var cases: [SpecCase] = []
        for file in files {
            let url = folder.appendingPathComponent(file + ".json")
            guard let data = try? Data(contentsOf: url), let document = try? JSONValue(parsing: data),
                let tests = document["tests"]?.arrayValue
            else {
                cases.append(SpecCase(file: file, name: "(unreadable file)", template: "", data: .null, partials: [:], expected: "?"))
                continue
            }
            for test in tests {
                var partials: [String: String] = [:]
                for (key, value) in test["partials"]?.objectValue ?? [:] { partials[key] = value.stringValue ?? "" }
                cases.append(
                    SpecCase(
                        file: file, name: test["name"]?.stringValue ?? "?", template: test["template"]?.stringValue ?? "",
                        data: test["data"] ?? .null, partials: partials, expected: test["expected"]?.stringValue ?? ""))
            }
        }
        return cases
    }

    /// Renders the test's template through a library holding it and its partials.
    func render(missingPartials: MissingPartials) throws -> String {
        var templates = partials
        templates[Self.mainName] = template
        let library = try TemplateLibrary(templates: templates, missingPartials: missingPartials)
        return try library.render(Self.mainName, TemplateValue(data))
    }

    static let mainName = "spec-test"
}

@Suite("Mustache specification")
struct MustacheSpecTests {
    /// Without the specification's files every other test here has nothing to run: this one says so.
    @Test("the specification's files are there")
    func filesAreThere() {
        #expect(SpecCase.folder != nil, """
            the Mustache specification is not at \(SpecCase.expectedFolder.path) (no sections.json): \
            put the spec's JSON files there (../shared/mustache-spec/ beside the package) or set RECOKIT_MUSTACHE_SPEC to their folder
            """)
    }

    @Test("core", arguments: SpecCase.load(SpecCase.coreFiles))
    func core(_ test: SpecCase) throws {
        try check(test)
    }

    @Test("optional: inheritance and dynamic names", arguments: SpecCase.load(SpecCase.optionalFiles))
    func optional(_ test: SpecCase) throws {
        try check(test)
    }

    @Test("the specification's counts are all there")
    func counts() {
        #expect(SpecCase.load(SpecCase.coreFiles).count == 136)
        #expect(SpecCase.load(["~inheritance"]).count == 27)
        #expect(SpecCase.load(["~dynamic-names"]).count == 21)
    }

    @Test("tests run leniently do fail under the default rule, as missing partials")
    func lenientOnlyWhereNeeded() throws {
        let cases = SpecCase.load(SpecCase.coreFiles + SpecCase.optionalFiles).filter { SpecCase.needEmptyMissingPartials.contains($0.id) }
        #expect(cases.count == SpecCase.needEmptyMissingPartials.count)
        for test in cases {
            let error = #expect(throws: TemplateError.self, "\(test.id)") { try test.render(missingPartials: .error) }
            #expect(error?.kind == .unknownPartial || error?.kind == .unknownParent, "\(test.id): \(String(describing: error))")
        }
    }

    private func check(_ test: SpecCase) throws {
        let lenient = SpecCase.needEmptyMissingPartials.contains(test.id)
        let output = try test.render(missingPartials: lenient ? .renderEmpty : .error)
        #expect(output == test.expected, "\(test.file): \(test.name)\ntemplate: \(test.template.debugDescription)")
    }
}
