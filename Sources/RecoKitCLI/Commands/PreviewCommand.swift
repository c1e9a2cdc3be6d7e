import Foundation
import RecoKit
import RecoTemplates
import RecoRelay

/// `recokit preview`: a static gallery of payloads rendered in every built-in template.
enum PreviewCommand: Command {
    static let name = "preview"
    static let summary = "Write a static HTML gallery of payloads in every built-in template"
    static let usage = """
        Usage: recokit preview [PAYLOAD...] [-o DIR] [--lang CODE] [--currency CODE]

        Writes DIR/index.html, listing every payload, and one page per payload showing each widget
        in every built-in template (carousel, grid, list, email, and the text rendering), the
        decoding report, and the tracking requests its impression, widget view and first-product
        click would send. A payload that is not a recommendation reply (an error reply…) gets a page
        saying what it is.

        Arguments:
          PAYLOAD            payload files or folders of *.json (default: Samples/Payloads, found from
                             the current folder or one of its parents)
        Options:
          -o, --output DIR   where to write (default: preview)
          --lang CODE        the language of widget titles where the vendor sends several (default EN,
                             the page's own language)
          --currency CODE    the currency of products that do not say theirs (default USD: Reteno's replies
                             name none; the page says so)

        Each payload is read and rendered in a process of its own: one that fails, even by crashing,
        gets a page that says so and is listed first in the index; the others are still written.
        A widget's page shows its first \(PreviewGallery.productsShown) products (and says so when it has more).

        Exit status: 0 every payload previewed, 1 a payload failed (its page says why; the others
        are still written), 2 wrong usage.
        """

    static func run(_ words: [String]) async throws -> Int32 {
        let arguments = try Arguments(words, options: ["output", "currency", "lang", PreviewProcess.pageOption], flags: [])
        if let page = arguments.value(PreviewProcess.pageOption) {
            return try previewOnePage(page, arguments)
        }
        let files: [String]
        do {
            files = try PreviewInputs.files(arguments.positionals)
        } catch {
            Console.error("error: \(error)")
            return 1
        }
        guard !files.isEmpty else {
            Console.error("error: no payload to preview: \(arguments.positionals.isEmpty ? "Samples/Payloads" : arguments.positionals.joined(separator: ", ")) holds no *.json file")
            return 1
        }
        let output = URL(fileURLWithPath: arguments.value("output") ?? "preview", isDirectory: true).standardizedFileURL
        if let problem = FileProblem.unwritableFolder(output.path) {
            Console.error("error: cannot write the preview to \(output.path): \(problem)")
            return 1
        }
        var gallery = PreviewGallery(files: files, output: output, renderer: WidgetRenderer(defaultCurrency: arguments.value("currency") ?? "USD"))
        gallery.language = arguments.value("lang") ?? "EN"
        let payloads: [PreviewEntry]
        do {
            payloads = try gallery.write()
        } catch let failure as ReplacedFile.Failure {
            Console.error("error: \(failure) (the file is as it was)")
            return 1
        } catch {
            Console.error("error: cannot write the preview to \(output.path): \(FileProblem.reason(error))")
            return 1
        }
        let width = max("index.html".count, payloads.map(\.page.count).max() ?? 0)
        Console.out("Wrote \(payloads.count + 1) pages to \(output.path)/")
        Console.out("  \("index.html".padding(toLength: width, withPad: " ", startingAt: 0))  \(plural(payloads.count, "payload"))")
        for payload in payloads {
            Console.out("  \(payload.page.padding(toLength: width, withPad: " ", startingAt: 0))  \(payload.summary)")
        }
        let failed = payloads.filter(\.failed)
        if !failed.isEmpty {
            // Each reason on standard error too, where a script or a person looking for errors reads.
            for payload in failed {
                let reason = payload.summary.hasPrefix("FAILED: ") ? String(payload.summary.dropFirst("FAILED: ".count)) : payload.summary
                Console.error("error: \(reason)")
            }
            Console.error("error: \(plural(failed.count, "payload")) failed: \(failed.map(\.file).joined(separator: ", "))")
            return 1
        }
        Console.out("Open \(output.appendingPathComponent("index.html").path)")
        return 0
    }

    /// The process of one payload (``PreviewProcess``): writes its page, prints its entry as one JSON line.
    private static func previewOnePage(_ page: String, _ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.count == 1, let file = arguments.positionals.first, let folder = arguments.value("output") else {
            throw UsageError("--\(PreviewProcess.pageOption) previews one PAYLOAD into -o DIR")
        }
        PreviewProcess.crashIfAsked(file)
        var gallery = PreviewGallery(files: [file], output: URL(fileURLWithPath: folder, isDirectory: true),
                                     renderer: WidgetRenderer(defaultCurrency: arguments.value("currency")))
        gallery.isolated = false
        gallery.language = arguments.value("lang") ?? "EN"
        let entry: PreviewEntry
        do { entry = try gallery.writePage(for: file, page: page) } catch let failure as ReplacedFile.Failure {
            Console.error("error: \(failure) (the file is as it was)")
            return 1
        } catch {
            // Said with the page's path (the parent, writing after it, names only the folder).
            Console.error("error: cannot write \(URL(fileURLWithPath: folder).appendingPathComponent(page).path): \(FileProblem.reason(error))")
            return 1
        }
        var line = try JSONEncoder().encode(entry)
        line.append(UInt8(ascii: "\n"))
        StandardStreams.writeOutput(line)
        return 0
    }
}

/// The payload files `preview` reads.
enum PreviewInputs {
    /// No payload given and no `Samples/Payloads` found.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The files named, and the `*.json` files of the folders named, sorted within each folder;
    /// with none, those of `Samples/Payloads` in the current folder or the nearest parent that has one.
    static func files(_ arguments: [String]) throws -> [String] {
        guard !arguments.isEmpty else {
            guard let folder = samplesFolder() else {
                throw Failure(description: "no PAYLOAD given and no Samples/Payloads folder in \(FileManager.default.currentDirectoryPath) or its parents")
            }
            return try jsonFiles(in: folder)
        }
        var files: [String] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                files += try jsonFiles(in: argument)
            } else {
                files.append(argument)  // a missing file gets a page that says so
            }
        }
        return files
    }

    private static func samplesFolder() -> String? {
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        while true {
            let candidate = folder.appendingPathComponent("Samples/Payloads")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return relative(candidate.path)
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    private static func jsonFiles(in folder: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw Failure(description: "cannot list \(folder): \(FileProblem.reason(error))")
        }
        return names.filter { $0.hasSuffix(".json") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }

    /// The path relative to the current folder when it is inside it (shorter lines, stable pages).
    private static func relative(_ path: String) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }
}
