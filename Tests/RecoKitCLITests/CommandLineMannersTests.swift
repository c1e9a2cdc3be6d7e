import Foundation
import Testing

/// The command line's manners, as swift-argument-parser gives them, checked on the real built `recokit`:
/// plain-worded file errors, one-line usage errors with a pointer to the help, options checked before use.
@Suite("recokit: errors and usage")
struct CommandLineMannersTests {
    typealias CLI = RecokitChildProcess

    /// Words that only Foundation's own error descriptions use.
    static let foundationWords = ["NSCocoaErrorDomain", "Error Domain", "UserInfo", "NSUnderlying", "The operation could not be completed", "NSPOSIX"]

    static func expectPlain(_ result: CLI.Result, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for word in foundationWords {
            #expect(!result.stderr.contains(word) && !result.stdout.contains(word), "\(comment) leaks \(word): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-manners-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    // MARK: Files

    @Test func aFolderGivenAsThePayloadIsSaidInPlainWords() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in ["render", "decode"] {
            let result = try CLI.run([command, folder.path])
            #expect(result.status == 1)
            #expect(result.errorLines == ["error: \(folder.path): cannot read the payload: it is a folder, not a file"], "\(command): \(result.stderr)")
            Self.expectPlain(result, command)
        }
    }

    @Test func aMissingPayloadIsWordedTheSameInEveryCommand() throws {
        let line = "error: Samples/Payloads/no-such.json: cannot read the payload: no such file"
        for command in ["render", "decode"] {
            let result = try CLI.run([command, "Samples/Payloads/no-such.json"])
            #expect(result.status == 1)
            #expect(result.errorLines == [line], "\(command): \(result.stderr)")
        }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let preview = try CLI.run(["preview", "Samples/Payloads/no-such.json", "-o", folder.path])
        #expect(preview.status == 1)
        #expect(preview.stdout.contains("FAILED: Samples/Payloads/no-such.json: cannot read the payload: no such file"), "\(preview.stdout)")
    }

    @Test func outputThatCannotBeWrittenIsSaidInPlainWords() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let payload = "Samples/Payloads/segmentify-v3.json"
        let intoFolder = try CLI.run(["render", payload, "-o", folder.path])
        #expect(intoFolder.status == 1)
        #expect(intoFolder.errorLines.last == "error: cannot write \(folder.path): it is a folder, not a file")
        Self.expectPlain(intoFolder, "render -o DIR")

        let missing = folder.appendingPathComponent("absent/out.html").path
        let intoMissing = try CLI.run(["render", payload, "-o", missing])
        #expect(intoMissing.errorLines.last == "error: cannot write \(missing): no such folder: \(folder.appendingPathComponent("absent").path)")

        let file = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let previewIntoFile = try CLI.run(["preview", payload, "-o", file.path])
        #expect(previewIntoFile.status == 1)
        #expect(previewIntoFile.errorLines == ["error: cannot write the preview to \(file.path): it is a file, not a folder"])
        Self.expectPlain(previewIntoFile, "preview -o FILE")
    }

    // MARK: Usage errors

    @Test(arguments: [
        (["render", "--bogus"], "render", "error: unknown option --bogus"),
        (["decode", "x.json", "--bogus"], "decode", "error: unknown option --bogus"),
        (["preview", "--bogus"], "preview", "error: unknown option --bogus"),
        (["journal"], "journal", "error: give exactly one journal directory"),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "https://x.example", "--deadline", "abc"], "relay",
         #"error: --deadline is a number of seconds from 0 to 86400, not "abc""#),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "https://x.example", "--deadline", "-5"], "relay",
         #"error: --deadline is a number of seconds from 0 to 86400, not "-5""#),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "https://x.example", "--deadline", "nan"], "relay",
         #"error: --deadline is a number of seconds from 0 to 86400, not "nan""#),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "https://x.example", "--segment-bytes", "4095"], "relay",
         #"error: --segment-bytes is a number of bytes from 4096 to 1073741824, not "4095""#),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "https://x.example", "--segment-bytes", "64k"], "relay",
         #"error: --segment-bytes is a number of bytes from 4096 to 1073741824, not "64k""#),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "https://x.example", "--request-timeout", "0"], "relay",
         #"error: --request-timeout is a number of seconds from 0.1 to 600, not "0""#),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "https://x.example", "--request-timeout", "10s"], "relay",
         #"error: --request-timeout is a number of seconds from 0.1 to 600, not "10s""#),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "ftp://x"], "relay",
         "error: --endpoint ftp://x: the scheme must be https or http, not ftp"),
        (["relay", "--journal", "j", "--vendor", "segmentify", "--endpoint", "gandalf"], "relay",
         "error: --endpoint gandalf is not a URL; give one such as https://gandalf.segmentify.com"),
        (["render", "Samples/Payloads/segmentify-v3.json", "--format", "text", "--template", "carousel"], "render",
         "error: --format text renders a text template, and carousel is an HTML one: use --format html, or --template text"),
    ])
    func aUsageErrorIsOneLineAndAPointerToTheHelp(arguments: [String], command: String, line: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.errorLines == [line, "see 'recokit help \(command)'"], "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnknownCommandPointsAtTheCommandList() throws {
        let result = try CLI.run(["frob"])
        #expect(result.status == 2)
        #expect(result.errorLines == ["error: unknown command 'frob'; the commands are decode, render, preview, relay, journal", "see 'recokit help'"])
    }

    @Test(arguments: ["decode", "render", "preview", "relay", "journal"])
    func helpNamesEachCommandsUsage(command: String) throws {
        let result = try CLI.run(["help", command])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: recokit \(command)"))
        #expect(try CLI.run([command, "--help"]).stdout == result.stdout)
    }

    @Test func aUserTemplateNamedLikeAnHTMLOneMayRenderText() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{{#products}}{{position}} {{displayName}}\n{{/products}}".utf8).write(to: folder.appendingPathComponent("carousel.mustache"))
        let result = try CLI.run(["render", "Samples/Payloads/reteno-recoms-fields.json", "--format", "text", "--template", "carousel", "--templates", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("1 Luma Yoga For Life\n"))
    }

    // MARK: Preview

    @Test func aPreviewOfAFolderWithoutPayloadsFails() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("out")
        let result = try CLI.run(["preview", empty.path, "-o", output.path])
        #expect(result.status == 1)
        #expect(result.errorLines == ["error: no payload to preview: \(empty.path) holds no *.json file"])
        #expect(!FileManager.default.fileExists(atPath: output.path), "no empty gallery is written")
    }

    @Test func theSummaryTableKeepsEveryNameWhole() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A payload named shorter than "index.html" once cut the index's name to the payloads' width.
        let payload = folder.appendingPathComponent("a.json")
        try Data(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/Payloads/reteno-recoms-fields.json")).write(to: payload)
        let result = try CLI.run(["preview", payload.path, "-o", folder.appendingPathComponent("out").path])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  ") }
        #expect(rows == ["  index.html  1 payload", "  a.html      1 widget, 6 products, 1 notice"], "\(result.stdout)")
    }
}
