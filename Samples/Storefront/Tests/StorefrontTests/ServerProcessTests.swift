import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import RecoKit
import RecoTracking
import Testing
@testable import StorefrontKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `Storefront` executable in a child process, stopped with SIGTERM, against a stand-in vendor
/// run by the test (so what the vendor received can be read after the process is gone).
@Suite("The server process")
struct ServerProcessTests {
    @Test func sigtermKeepsWhatTheVendorRefusedAndTheNextStartDeliversIt() async throws {
        let vendor = try StandInVendor(behaviour: .init(refusingEvents: true))
        let vendorApp = Application(router: vendor.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Harness.serverLogger)
        try await vendorApp.test(.live) { vendorClient in
            let vendorURL = "http://127.0.0.1:\(try #require(vendorClient.port))"
            let journal = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-process-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: journal) }

            // First run: the vendor refuses every event, so SIGTERM's one-second drain cannot deliver them.
            let first = try await ServerProcess.start(vendorURL: vendorURL, journal: journal, drainSeconds: 1)
            let page = try await first.get("/products/100900")
            let segmentifyBlocks = page.attribute("data-reco-vendor").filter { $0 == "segmentify" }.count
            let retenoProducts = try RetenoProductsOnPage(page).map(\.productId)
            #expect(segmentifyBlocks == Harness.segmentifyBlocks.count && !retenoProducts.isEmpty)
            let firstRun = try await first.terminate()
            #expect(firstRun.status == 0, "\(firstRun.log)")
            #expect(firstRun.log.contains("tracking segmentify: delivered 0, pending \(segmentifyBlocks),"), "\(firstRun.log)")
            #expect(firstRun.log.contains("tracking reteno: delivered 0, pending \(retenoProducts.count),"), "\(firstRun.log)")
            #expect(vendor.received.isEmpty)

            // Second run, vendor back: what the first left in the journal is sent, then SIGTERM drains cleanly.
            vendor.behaviour = .init()
            let second = try await ServerProcess.start(vendorURL: vendorURL, journal: journal, drainSeconds: 10)
            let secondRun = try await second.terminate()
            #expect(secondRun.status == 0, "\(secondRun.log)")
            #expect(secondRun.log.contains("events left by the last run, sending them first"), "\(secondRun.log)")
            #expect(secondRun.log.contains("tracking segmentify: delivered \(segmentifyBlocks), pending 0,"), "\(secondRun.log)")

            let visitor = try #require(page.visitorId)
            let impressions = vendor.received.filter { $0.vendor == "segmentify" }.flatMap { $0.body.arrayValue ?? [] }
                .filter { $0["type"]?.stringValue == "impression" }
            // Delivery is at least once: a batch the vendor took but whose reply came too late (a loaded
            // machine) is sent again. So impressions are counted by their event ids, each of which must be there.
            let eventIds = impressions.map { $0["params"]?["eventId"]?.stringValue }
            #expect(!eventIds.contains(nil), "every Segmentify event carries its eventId")
            #expect(Set(eventIds.compactMap { $0 }).count == segmentifyBlocks, "\(impressions)")
            #expect(impressions.allSatisfy { $0["userId"]?.stringValue == visitor })
            let retenoImpressions = vendor.received.filter { $0.vendor == "reteno" }
                .flatMap { $0.body["events"]?.arrayValue ?? [] }.flatMap { $0["impressions"]?.arrayValue ?? [] }
            #expect(Set(retenoImpressions.compactMap { $0["productId"]?.stringValue }) == Set(retenoProducts))
        }
    }
}

/// A `Storefront` child process on a free loopback port.
struct ServerProcess {
    let process: Process
    let output: Pipe
    let port: Int

    /// The executable `swift build` put beside this package's other products: in the folder of the test
    /// bundle running now (whatever the build folder is), or this package's `.build/`.
    static var executable: URL {
        get throws {
            let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let beside = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("Storefront")
            let candidates = [beside, Bundle.main.bundleURL.appendingPathComponent("Storefront")]
                + ["debug", "release"].map { package.appendingPathComponent(".build/\($0)/Storefront") }
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                throw ServerProcessError("no Storefront executable beside the tests or under .build/: build it first (run-tests.sh does)")
            }
            return found
        }
    }

    /// Starts the server and waits until it answers.
    static func start(vendorURL: String, journal: URL, drainSeconds: Int) async throws -> ServerProcess {
        let port = try freePort()
        let process = Process()
        process.executableURL = try executable
        process.arguments = ["--port", String(port), "--vendor-url", vendorURL, "--journal", journal.path,
                             "--drain", String(drainSeconds), "--timeout", "5000"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let server = ServerProcess(process: process, output: output, port: port)
        for _ in 0..<300 {
            if (try? await server.get("/products/100900?blocks=off"))?.status == .ok { return server }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw ServerProcessError("the server did not answer on port \(port)")
    }

    /// A page, as a browser without cookies would get it.
    func get(_ path: String) async throws -> Page {
        try await response(path).page
    }

    /// A page, as a browser without cookies sending `headers` would get it, and the response's headers.
    func response(_ path: String, headers: [(String, String)] = []) async throws -> (page: Page, headers: [(name: String, value: String)]) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "User-Agent", value: BrowserClient.userAgent)
        request.headers.add(contentsOf: headers)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 4 * 1024 * 1024)
        let cookies = response.headers["Set-Cookie"].compactMap { $0.split(separator: ";").first.map(String.init) }
        return (Page(status: HTTPResponse.Status(code: Int(response.status.code)), html: String(buffer: body), cookies: cookies.joined(separator: "; ")),
                Array(response.headers))
    }

    /// Sends SIGTERM and waits for the process to end: its exit status and everything it logged.
    func terminate() async throws -> (status: Int32, log: String) {
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<600 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        guard !process.isRunning else {
            process.interrupt()
            throw ServerProcessError("the server was still running 30 s after SIGTERM")
        }
        let log = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, log)
    }

    /// A port nobody listens on now (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw ServerProcessError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw ServerProcessError("could not bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct ServerProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
