import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StorefrontKit

/// Each request's id, in every line the real server logs while handling it and in its response.
@Suite("Request ids")
struct RequestIdTests {
    @Test func everyLineOfARequestCarriesItsIdAndTheResponseEchoesIt() async throws {
        // Both vendors fail, so each page logs two lines (one per vendor) from the recommendation source.
        let vendor = try StandInVendor(behaviour: .init(failing: true))
        let vendorApp = Application(router: vendor.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                    logger: Harness.serverLogger)
        try await vendorApp.test(.live) { vendorClient in
            let vendorURL = "http://127.0.0.1:\(try #require(vendorClient.port))"
            let journal = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-request-ids-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: journal) }
            let server = try await ServerProcess.start(vendorURL: vendorURL, journal: journal, drainSeconds: 1)
            let given = "edge-7f3a-0001"
            // Three pages at once: one with an id of its own, two whose ids are refused (spaces; too long).
            async let taken = server.response("/products/100900", headers: [("X-Request-Id", given)])
            async let spaced = server.response("/products/101", headers: [("X-Request-Id", "has spaces in it")])
            async let long = server.response("/products/102", headers: [("X-Request-Id", String(repeating: "x", count: 129))])
            let responses = try await [taken, spaced, long]
            let run = try await server.terminate()
            #expect(run.status == 0, "\(run.log)")

            let ids = responses.map { $0.headers.filter { $0.name.lowercased() == "x-request-id" }.map(\.value) }
            #expect(ids.allSatisfy { $0.count == 1 }, "one X-Request-Id each: \(ids)")
            #expect(ids[0] == [given])
            let generated = ids.dropFirst().compactMap(\.first)
            #expect(generated.count == 2 && Set(generated).count == 2 && !generated.contains(given))
            #expect(generated.allSatisfy { !$0.contains(" ") && $0.utf8.count <= RequestLogging.maxIncomingLength }, "\(generated)")

            // Each line's id, read from the line: three ids, two lines each (one per vendor), the same ids as the responses'.
            let lines = run.log.split(separator: "\n").filter { $0.contains("answered HTTP 503") }
            #expect(lines.count == 6, "\(run.log)")
            let byId = Dictionary(grouping: lines) { line in
                line.range(of: "request-id=").map { String(line[$0.upperBound...].prefix { $0 != " " }) }
            }
            #expect(byId[nil] == nil, "lines without an id: \(byId[nil] ?? [])")
            #expect(byId.count == 3 && byId[given] != nil, "\(lines)")
            for (id, own) in byId {
                #expect(own.count == 2 && own.contains { $0.contains("segmentify") } && own.contains { $0.contains("reteno") }, "\(id ?? "none"): \(own)")
            }
            #expect(Set(byId.keys.compactMap { $0 }) == Set(ids.compactMap(\.first)), "the ids logged are the ids answered")
        }
    }

    @Test func anIncomingIdIsTakenOnlyWhenShortAndPrintable() {
        let generated = "generated"
        for accepted in ["a", "edge-7f3a-0001", "0f8fad5b-d9cb-469f-a165-70867728950e", "Root=1-67891233-abcdef012345678912345678",
                         String(repeating: "~", count: RequestLogging.maxIncomingLength)] {
            #expect(RequestLogging.requestId(incoming: [accepted], generated: generated) == accepted, "\(accepted)")
        }
        for refused in ["", " ", "has spaces", "tab\there", "line\nbreak", "nul\u{0}", "del\u{7F}", "çay", "🙂",
                        String(repeating: "x", count: RequestLogging.maxIncomingLength + 1)] {
            #expect(RequestLogging.requestId(incoming: [refused], generated: generated) == generated, "\(refused.debugDescription)")
        }
        #expect(RequestLogging.requestId(incoming: [], generated: generated) == generated)
        #expect(RequestLogging.requestId(incoming: ["one", "two"], generated: generated) == generated, "given twice")
    }
}
