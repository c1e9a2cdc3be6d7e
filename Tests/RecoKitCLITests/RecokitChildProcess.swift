import Foundation

/// Runs the built `recokit` executable as a child process and collects what it printed.
///
/// The executable is found, in order: at `$RECOKIT_EXECUTABLE`; beside the running test bundle (SwiftPM
/// builds `recokit` into the same products folder); in the package's `.build/debug/`.
struct RecokitChildProcess {
    /// What one run printed and how it ended.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard error's lines, without a trailing empty one.
        var errorLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
    }

    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String { "the recokit executable is not built; looked at: \(searched.joined(separator: ", ")); run `swift build` first" }
    }

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["RECOKIT_EXECUTABLE"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        var folders: [URL] = []
        if let runner = Bundle.main.executableURL { folders.append(runner.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        if let first = CommandLine.arguments.first { folders.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        candidates += folders.map { $0.appendingPathComponent("recokit") }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue { return candidate }
        }
        throw NotFound(searched: candidates.map(\.path))
    }

    /// Runs `recokit` with the arguments, feeding `stdin` to its standard input.
    static func run(_ arguments: [String], stdin: Data = Data()) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inURL = folder.appendingPathComponent("stdin")
        let outURL = folder.appendingPathComponent("stdout")
        let errURL = folder.appendingPathComponent("stderr")
        try stdin.write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)

        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Writes `text` to a new temporary file named `name` and returns its path.
    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}

extension RecokitChildProcess {
    /// Removes a file made by ``temporaryFile(_:_:)`` and its folder.
    static func removeTemporaryFile(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }
}
