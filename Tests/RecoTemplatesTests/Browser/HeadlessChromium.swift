import Foundation
import Testing

/// Debian's `chromium`, run headless to load a page and print its DOM once the page has settled
/// (`--dump-dom` after a virtual-time budget, so timers, refreshes and SVG animations have run).
///
/// Installed by `Tests/Browser/install-chromium.sh`; the tests that need it are skipped when it is missing.
struct HeadlessChromium {
    let executable: URL

    /// The browser, from `$CHROMIUM` or the usual places; nil when none is installed.
    static let installed: HeadlessChromium? = {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"], !path.isEmpty { candidates.append(path) }
        candidates += ["/usr/bin/chromium", "/usr/local/bin/chromium", "/usr/bin/chromium-browser"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { HeadlessChromium(executable: URL(fileURLWithPath: $0)) }
    }()

    /// Why the browser tests are skipped, for the test's condition.
    static let missingReason: Comment =
        "chromium is not installed: run `bash Tests/Browser/install-chromium.sh` (Debian's chromium) or set $CHROMIUM"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Loads the page file and returns the DOM as Chromium serialises it after the page settled.
    /// A browser that has not finished within `limit` seconds is ended and reported.
    /// `windowSize` (width, height in CSS pixels) sets the viewport, for layout checks at phone width.
    func dumpDOM(of page: URL, windowSize: (width: Int, height: Int)? = nil, limit: TimeInterval = 60) throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("reco-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let output = profile.appendingPathComponent("dom.html")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=1500", "--dump-dom", page.absoluteString,
        ]
        if let windowSize { process.arguments?.insert("--window-size=\(windowSize.width),\(windowSize.height)", at: 0) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure(description: "chromium did not finish loading \(page.lastPathComponent) within \(Int(limit)) s")
        }
        let dom = try String(contentsOf: output, encoding: .utf8)
        guard process.terminationStatus == 0, !dom.isEmpty else {
            throw Failure(description: "chromium exited with status \(process.terminationStatus) for \(page.lastPathComponent), DOM: \(dom.prefix(200))")
        }
        return dom
    }
}
