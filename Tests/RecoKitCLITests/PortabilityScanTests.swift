import Foundation
import Testing

/// The quick half of `Tests/Portability/typecheck-darwin.sh` (the whole script, which type-checks every
/// module with macOS's conditions, runs in `.ci/run`): no Glibc, Musl or /proc outside a Linux-only `#if`.
@Suite("Portability scan")
struct PortabilityScanTests {
    static func scan(_ folder: String?) throws -> (status: Int32, output: String) {
        let script = RecokitChildProcess.packageRoot.appendingPathComponent("Tests/Portability/typecheck-darwin.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "--scan-only"] + (folder.map { [$0] } ?? [])
        process.currentDirectoryURL = RecokitChildProcess.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func theSourcesUseLinuxOnlyCodeOnlyUnderALinuxOnlyIf() throws {
        let result = try Self.scan(nil)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func anUnguardedGlibcCallIsFound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-scan-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            #if canImport(Glibc)
            import Glibc
            let guarded = Glibc.close(0)
            #elseif canImport(Darwin)
            import Darwin
            #endif
            let fd = Glibc.open("journal", 0)

            """.utf8).write(to: folder.appendingPathComponent("Journal.swift"))
        let result = try Self.scan(folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("Journal.swift:7: let fd = Glibc.open(\"journal\", 0)"), "\(result.output)")
        #expect(!result.output.contains("let guarded"), "the call inside #if canImport(Glibc) is fine")
    }
}
