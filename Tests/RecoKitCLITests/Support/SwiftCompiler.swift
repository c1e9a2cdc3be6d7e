import Foundation

/// `swiftc`, run on a snippet against the package's built modules (the folder `swift build` wrote).
struct SwiftCompiler {
    /// What one run said.
    struct Outcome {
        var status: Int32
        var output: String
    }

    struct NotFound: Error, CustomStringConvertible {
        var description: String
    }

    /// The compiler: `$SWIFTC`, else `swiftc` on the PATH, else beside the toolchain in /opt/swift.
    static func compiler() throws -> URL {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["SWIFTC"], !path.isEmpty { candidates.append(path) }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(String(folder) + "/swiftc")
        }
        candidates.append("/opt/swift/usr/bin/swiftc")
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw NotFound(description: "no swiftc: looked at \(candidates.joined(separator: ", "))")
        }
        return URL(fileURLWithPath: found)
    }

    /// The build folder that holds `recokit`, `Modules/` and each target's `NAME.build/` objects.
    static func buildFolder() throws -> URL {
        try RecokitChildProcess.executable().deletingLastPathComponent()
    }

    /// Type-checks `source` as a program's `main.swift` (top-level code allowed) against the built modules.
    static func typeCheck(_ source: String, warnings: Bool = true) throws -> Outcome {
        try run(source, arguments: ["-typecheck"] + (warnings ? [] : ["-suppress-warnings"]))
    }

    /// Compiles `source` as a program, linked with the objects of `targets`, and returns the executable.
    static func build(_ source: String, linking targets: [String], into folder: URL) throws -> (Outcome, URL) {
        let build = try buildFolder()
        var objects: [String] = []
        for target in targets {
            // The objects of the target's sources as they are now (its output file map), not every `.o` in
            // the folder: an incremental build keeps the objects of files since removed or renamed.
            let folder = build.appendingPathComponent("\(target).build")
            let map = folder.appendingPathComponent("output-file-map.json")
            guard FileManager.default.fileExists(atPath: map.path) else {
                // A C target has no map: one object per source file, named after it.
                objects += try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".o") }.sorted()
                    .map { folder.appendingPathComponent($0).path }
                continue
            }
            let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: map)) as? [String: [String: String]] ?? [:]
            objects += entries.values.compactMap { $0["object"] }.sorted()
        }
        let program = folder.appendingPathComponent("snippet")
        let outcome = try run(source, arguments: objects + ["-lTesting", "-o", program.path])
        return (outcome, program)
    }

    /// The package's C modules' folders (`Sources/NAME/include`, with their module maps): the Swift modules
    /// that import one (RecoTracking imports CRecoChecksum) need it found to be imported themselves.
    static func cModuleFolders() -> [String] {
        let sources = RecokitChildProcess.packageRoot.appendingPathComponent("Sources")
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return targets.sorted().map { sources.appendingPathComponent($0).appendingPathComponent("include").path }
            .filter { FileManager.default.fileExists(atPath: $0 + "/module.modulemap") }
    }

    private static func run(_ source: String, arguments: [String]) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-snippet-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let main = folder.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: main)
        let log = folder.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = try compiler()
        process.arguments = ["-swift-version", "6", "-I", try buildFolder().appendingPathComponent("Modules").path]
            + cModuleFolders().flatMap { ["-I", $0] }
            + ["-module-cache-path", try buildFolder().appendingPathComponent("ModuleCache").path, main.path] + arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return Outcome(status: process.terminationStatus, output: String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }
}
