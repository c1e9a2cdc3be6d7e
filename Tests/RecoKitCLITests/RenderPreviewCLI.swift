import Foundation
import Testing

/// Runs the built `recokit` executable, for the render and preview command tests.
struct RenderPreviewCLI {
    struct Result {
        let status: Int32
        let out: String
        let err: String
    }

    /// The package folder (for the sample payloads).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `recokit`, built beside the test bundle by `swift test`.
    static func executable() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("recokit")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        let fallback = packageRoot.appendingPathComponent(".build/debug/recokit")
        try #require(FileManager.default.isExecutableFile(atPath: fallback.path), "recokit is not built; run swift build first")
        return fallback
    }

    static func run(_ arguments: [String], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        // Files rather than pipes: a large output can never block the child.
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outFile = scratch.appendingPathComponent("out"), errFile = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let out = try FileHandle(forWritingTo: outFile), err = try FileHandle(forWritingTo: errFile)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let outData = try Data(contentsOf: outFile), errData = try Data(contentsOf: errFile)
        return Result(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }

    static func payload(_ name: String) -> String {
        packageRoot.appendingPathComponent("Samples/Payloads/\(name).json").path
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
