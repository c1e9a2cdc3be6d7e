import Foundation
import RecoRelay

/// Previews one payload in a process of its own (`recokit preview --page NAME FILE -o DIR`), so that a
/// payload which crashes the decoder or the renderer costs the gallery that one page, never the others:
/// the page of a payload whose process died says so, and the index lists it as failed.
enum PreviewProcess {
    /// The hidden option that makes `preview` write one page and print its ``PreviewEntry`` as JSON.
    static let pageOption = "page"
    /// Fault injection for tests: a child whose payload file name ends with this variable's value
    /// stops with a trap before reading it, as a crash in the decoder would.
    static let crashVariable = "RECOKIT_PREVIEW_TEST_CRASH"

    /// How a child ended, when it did not hand back its entry.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the child for `file` and returns its entry.
    /// - Throws: ``Failure`` saying how the child ended (a signal, an exit status) when it printed no entry.
    static func preview(_ file: String, page: String, output: URL, currency: String?, language: String) throws(Failure) -> PreviewEntry {
        let process = Process()
        process.executableURL = executable()
        var arguments = ["preview", "--\(pageOption)", page, "-o", output.path]
        if let currency { arguments += ["--currency", currency] }
        arguments += ["--lang", language]
        process.arguments = arguments + ["--", file]
        let stdout = Pipe()
        process.standardOutput = stdout
        do {
            try process.run()
        } catch {
            throw Failure(description: "recokit could not start a process to preview it: \(error)")
        }
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            throw Failure(description: "recokit crashed while previewing this payload (signal \(process.terminationStatus)); the other payloads were previewed on their own")
        }
        let line = printed.split(separator: UInt8(ascii: "\n")).last.map { Data($0) } ?? Data()
        guard let entry = try? JSONDecoder().decode(PreviewEntry.self, from: line) else {
            throw Failure(description: "previewing this payload stopped with exit status \(process.terminationStatus) and no result")
        }
        return entry
    }

    /// In the child: stops with a trap when the test's fault injection names this file.
    static func crashIfAsked(_ file: String) {
        guard let suffix = ProcessInfo.processInfo.environment[crashVariable], !suffix.isEmpty, file.hasSuffix(suffix) else { return }
        fatalError("\(crashVariable) asked for a crash on \(file)")
    }

    /// This program: /proc/self/exe where there is one, else what Foundation says.
    private static func executable() -> URL {
        #if os(Linux)
        let procSelf = "/proc/self/exe"
        if FileManager.default.fileExists(atPath: procSelf) {
            return URL(fileURLWithPath: procSelf).resolvingSymlinksInPath()
        }
        #endif
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }
}
