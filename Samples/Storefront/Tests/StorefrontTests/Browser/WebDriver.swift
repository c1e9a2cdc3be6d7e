import AsyncHTTPClient
import Foundation
import NIOCore
import RecoKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Debian's headless Chromium driven through `chromedriver` (W3C WebDriver over HTTP on a loopback port):
/// just the commands the storefront's browser test needs. Installed by `Tests/Browser/install-chromium.sh`;
/// the test is skipped, saying so, when either program is missing.
final class WebDriver: @unchecked Sendable {
    /// `chromium` and `chromedriver`, from `$CHROMIUM` / `$CHROMEDRIVER` or the usual places; nil when either is missing.
    static let installed: (browser: String, driver: String)? = {
        let environment = ProcessInfo.processInfo.environment
        func find(_ variable: String, _ paths: [String]) -> String? {
            ([environment[variable]].compactMap { $0 } + paths).first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        guard let browser = find("CHROMIUM", ["/usr/bin/chromium", "/usr/local/bin/chromium", "/usr/bin/chromium-browser"]),
              let driver = find("CHROMEDRIVER", ["/usr/bin/chromedriver", "/usr/local/bin/chromedriver", "/usr/lib/chromium/chromedriver"]) else { return nil }
        return (browser, driver)
    }()

    /// Why the browser test is skipped.
    static let missingReason = "chromium or chromedriver is not installed: run `bash Tests/Browser/install-chromium.sh` (Debian's chromium and chromium-driver) or set $CHROMIUM and $CHROMEDRIVER"

    private let driver: Process
    private let base: String
    /// The browser's profile folder, of this session alone: what names its processes, to end every one of
    /// them (chromedriver killed leaves the browser's children running), and what is removed after.
    private let profile = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-chromium-\(UUID().uuidString)")
    private var session = ""

    /// Starts chromedriver and a headless browser session with a window of `width`×`height`.
    init(width: Int = 1280, height: Int = 800) async throws {
        guard let installed = Self.installed else { throw ServerProcessError(Self.missingReason) }
        let port = try ServerProcess.freePort()
        base = "http://127.0.0.1:\(port)"
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: installed.driver)
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? await command("GET", "/status"))?["value"]?["ready"] == .bool(true)
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard ready else {
            stopDriver()
            throw ServerProcessError("chromedriver did not start on port \(port)")
        }
        // Headless Chromium names itself "HeadlessChrome", which the impression policy's bot list holds (it
        // is how scrapers run): the browser here stands for a person's, so it says what a desktop Chrome says.
        let arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                         "--disable-extensions", "--window-size=\(width),\(height)", "--user-agent=\(BrowserClient.userAgent)",
                         "--user-data-dir=\(profile.path)"]
        let capabilities: JSONValue = .object(["capabilities": .object(["alwaysMatch": .object([
            "browserName": .string("chrome"),
            "goog:chromeOptions": .object(["binary": .string(installed.browser), "args": .array(arguments.map(JSONValue.string))]),
        ])])])
        do {
            let reply = try await command("POST", "/session", capabilities)
            session = try Self.require(reply["value"]?["sessionId"]?.stringValue, "no session id in \(reply)")
        } catch {
            stopDriver()
            throw error
        }
    }

    /// Ends the session and chromedriver (with SIGKILL: a child of a process that runs a ServiceGroup
    /// inherits its ignored SIGTERM).
    func quit() async {
        _ = try? await command("DELETE", "/session/\(session)")
        stopDriver()
        for _ in 0..<100 where driver.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
    }

    private func stopDriver() {
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        // Every process of this session's browser (its command line names the profile folder), then the folder.
        let marker = Array(profile.path.utf8)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                  line.range(of: Data(marker)) != nil else { continue }
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(at: profile)
    }

    /// Loads `url` and waits for it to load.
    func open(_ url: String) async throws { _ = try await command("POST", "/session/\(session)/url", .object(["url": .string(url)])) }

    /// The address of the page shown now.
    func currentURL() async throws -> String {
        try Self.require(try await command("GET", "/session/\(session)/url")["value"]?.stringValue, "no URL")
    }

    /// Runs `script` (a function body; `return` gives the result) in the page.
    func run(_ script: String) async throws -> JSONValue {
        try await command("POST", "/session/\(session)/execute/sync", .object(["script": .string(script), "args": .array([])]))["value"] ?? .null
    }

    /// Clicks the first element matching a CSS selector, as a user would (scrolled into view first).
    func click(_ selector: String) async throws {
        let found = try await command("POST", "/session/\(session)/element", .object(["using": .string("css selector"), "value": .string(selector)]))
        guard case .object(let reference)? = found["value"], let element = reference.values.first?.stringValue else {
            throw ServerProcessError("no element matches \(selector)")
        }
        _ = try await command("POST", "/session/\(session)/element/\(element)/click", .object([:]))
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) async throws {
        _ = try await command("POST", "/session/\(session)/window/rect", try JSONValue(parsing: #"{"width":\#(width),"height":\#(height)}"#))
    }

    /// A PNG of the viewport.
    func screenshot() async throws -> Data {
        let text = try Self.require(try await command("GET", "/session/\(session)/screenshot")["value"]?.stringValue, "no screenshot")
        return try Self.require(Data(base64Encoded: text), "the screenshot is not base64")
    }

    private func command(_ method: String, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        var request = HTTPClientRequest(url: base + path)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: JSONWriter.string(body)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 32 << 20)
        let reply = try JSONValue(parsing: Data(bytes.readableBytesView))
        guard response.status.code < 300 else { throw ServerProcessError("WebDriver \(method) \(path): \(response.status.code) \(reply)") }
        return reply
    }

    private static func require<Value>(_ value: Value?, _ message: @autoclosure () -> String) throws -> Value {
        guard let value else { throw ServerProcessError(message()) }
        return value
    }
}
