import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StorefrontKit

/// Hummingbird's own limits as the storefront sets them (``ServerLimits``), against clients that would
/// hold or flood a connection.
@Suite("Server limits")
struct ServerLimitsTests {
    /// Runs the storefront's router on a real loopback port with `limits`.
    static func live(_ limits: ServerLimits, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-limits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: journal) }
        let storefront = try Storefront(source: RecommendationSource(settings: VendorSettings(standIn: URL(string: "http://127.0.0.1:9")!)),
                                        tracking: StorefrontTracking(directory: journal, settings: VendorSettings(standIn: URL(string: "http://127.0.0.1:9")!)))
        let app = Application(router: storefront.router(), server: limits.server, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Harness.serverLogger)
        try await app.test(.live) { client in
            try await body(try #require(client.port))
        }
    }

    @Test func aClientSendingItsHeadersAByteAtATimeIsCutOff() async throws {
        try await Self.live(ServerLimits(idleTimeout: .seconds(1))) { port in
            let connection = try RawConnection(port: port)
            #expect(connection.send("GET /products/100900?blocks=off HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "))
            // One byte every 100 ms, never finishing the head: the idle timeout (1 s) must end the connection.
            // The 60 s bound only keeps a broken server from hanging the test; it is not a speed check.
            var sent = 0
            while !connection.isClosedByServer, sent < 600 {
                guard connection.send("a") else { break }
                sent += 1
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(connection.isClosedByServer, "still open after \(sent) bytes of a head that never ends")
            #expect(!connection.readAll().contains("200 OK"))
        }
    }

    @Test func anOversizedHeaderIsRefusedAndTheServerStillAnswers() async throws {
        let limits = ServerLimits()
        try await Self.live(limits) { port in
            let big = try RawConnection(port: port)
            big.send("GET /products/100900?blocks=off HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                     + String(repeating: "b", count: limits.maxHeaderFieldBytes * 2) + "\r\n\r\n")
            let answer = big.readAll()
            #expect(!answer.contains("200 OK"), "\(answer.prefix(200))")
            #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 4"), "refused with a 4xx or by closing: \(answer.prefix(200))")

            let many = try RawConnection(port: port)
            let headers = (0...limits.maxHeaderFields).map { "X-H\($0): v\r\n" }.joined()
            many.send("GET /products/100900?blocks=off HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n")
            #expect(!many.readAll().contains("200 OK"), "more than \(limits.maxHeaderFields) header lines are refused")

            let fine = try RawConnection(port: port)
            fine.send("GET /products/100900?blocks=off HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(fine.readAll().hasPrefix("HTTP/1.1 200 OK"))
        }
    }
}
