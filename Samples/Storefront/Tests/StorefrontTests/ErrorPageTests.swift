import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StorefrontKit

@Suite("Error pages")
struct ErrorPageTests {
    @Test func aMissingStaticPageNamesNoPathAndLogsItWithTheRequestId() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-secret-folder-\(UUID().uuidString)/page.html")
        try await Harness.run(staticPage: StaticPage(file: file)) { client, harness in
            let page = try await client.page("/static")
            #expect(page.status == .notFound)
            #expect(!page.html.contains(file.path) && !page.html.contains("storefront-secret-folder") && !page.html.contains("/tmp"))
            let requestId = try #require(Self.requestId(in: page.html))
            #expect(harness.log.messages.contains { $0.contains(file.path) && $0.contains("request-id=\(requestId)") }, "\(harness.log.messages)")
        }
    }

    @Test func anyThrownErrorGivesAGenericPageAndTheLogKeepsTheDetail() async throws {
        struct Leaky: Error, CustomStringConvertible {
            var description: String { "could not open /srv/storefront/secrets/key.pem" }
        }
        let log = LogRecorder()
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("sf-errors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: journal) }
        let storefront = try Storefront(source: RecommendationSource(settings: VendorSettings(standIn: URL(string: "http://127.0.0.1:9")!)),
                                        tracking: StorefrontTracking(directory: journal,
                                                                     settings: VendorSettings(standIn: URL(string: "http://127.0.0.1:9")!)),
                                        logger: log.logger("storefront"))
        let router = storefront.router()
        router.get("/broken") { _, _ -> Response in throw Leaky() }
        router.get("/refused") { _, _ -> Response in throw HTTPError(.badRequest, message: "bad header in /etc/passwd") }
        try await Application(router: router).test(.router) { client in
            for (uri, status) in [("/broken", HTTPResponse.Status.internalServerError), ("/refused", .badRequest), ("/no/such/route", .notFound)] {
                let page = try await client.page(uri)
                #expect(page.status == status, "\(uri)")
                #expect(!page.html.contains("/srv") && !page.html.contains("/etc") && !page.html.contains("key.pem"), "\(uri): \(page.html)")
                let requestId = try #require(Self.requestId(in: page.html), "\(uri): \(page.html)")
                #expect(log.messages.contains { $0.contains(uri) && $0.contains("request-id=\(requestId)") }, "\(uri): \(log.messages)")
            }
            #expect(log.messages.contains { $0.contains("/srv/storefront/secrets/key.pem") }, "the detail is in the log")
        }
    }

    static func requestId(in text: String) -> String? {
        guard let range = text.range(of: "Request id: ") else { return nil }
        let id = text[range.upperBound...].prefix { !$0.isWhitespace }
        return id.isEmpty ? nil : String(id)
    }
}
