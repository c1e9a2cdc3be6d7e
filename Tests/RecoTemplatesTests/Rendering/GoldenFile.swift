import Foundation
import Testing

/// Golden files: expected renderings kept in `Tests/RecoTemplatesTests/Golden/`.
///
/// A rendering that differs from its file fails the test with the first differing line. Re-record on
/// purpose, never by hand: `RECOKIT_RECORD_GOLDEN=1 swift test --filter RecoTemplatesTests`, then
/// review the diff with `git diff Tests/RecoTemplatesTests/Golden`.
enum GoldenFile {
    static let environmentVariable = "RECOKIT_RECORD_GOLDEN"

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Rendering
        .deletingLastPathComponent()  // RecoTemplatesTests
        .appendingPathComponent("Golden", isDirectory: true)

    static var isRecording: Bool {
        let value = ProcessInfo.processInfo.environment[environmentVariable] ?? ""
        return !value.isEmpty && value != "0"
    }

    /// Compares `actual` with the golden file `name`, or writes it when recording.
    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = folder.appendingPathComponent(name)
        if isRecording {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: file)
            } catch {
                Issue.record("cannot write the golden file \(file.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record("no golden file \(name); record it with \(environmentVariable)=1 swift test --filter RecoTemplatesTests", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = Array(zip(expectedLines, actualLines)).firstIndex { $0.0 != $0.1 } ?? min(expectedLines.count, actualLines.count)
        let want = line < expectedLines.count ? String(expectedLines[line]) : "(end of file)"
        let got = line < actualLines.count ? String(actualLines[line]) : "(end of output)"
        Issue.record("""
            \(name) differs at line \(line + 1):
              golden: \(want)
              actual: \(got)
            (if the change is intended: \(environmentVariable)=1 swift test --filter RecoTemplatesTests)
            """, sourceLocation: sourceLocation)
    }
}
