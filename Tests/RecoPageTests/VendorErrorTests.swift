import Foundation
import Testing
import RecoPage

/// Each way a vendor can answer without widgets, against a real HTTP server, and the typed reason.
@Suite("Recommendations client: vendor errors")
struct VendorErrorTests {
    @Test(arguments: ["NO_ACCOUNT", "NO_DOMAIN_APIKEY_MATCH", "BAD_INPUT", "SOMETHING_NEW"])
    func segmentifyErrorCodes(code: String) async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.segmentifyPath, otherwise: .init(status: code == "BAD_INPUT" ? 400 : 200, body: #"{"statusCode":"\#(code)"}"#))
            let client = RecommendationsClient()
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await client.widgets(for: .segmentify(try Fixtures.segmentify(server.base)), as: Product.self, budget: Fixtures.patience)
            }
            #expect(error?.kind == .vendorError)
            #expect(error?.vendorCode == code)
            #expect(error?.vendor == .segmentify)
            #expect(error?.description.hasPrefix("segmentify: answered \(code): ") == true)
        }
    }

    /// A reply of 5,000 items none of which is a recommendation block: the failure's words (logged at
    /// every page) give the first ten notices and how many more the report holds, not all 5,000.
    @Test func aReplyOfThousandsOfNoticesIsSaidInTenLines() async throws {
        try await withVendorServer { server in
            let items = (0..<5_000).map { #"{"type":"sendBannerDetails\#($0)","params":{}}"# }.joined(separator: ",")
            try await server.route(Fixtures.segmentifyPath, otherwise: .init(body: #"{"statusCode":"SUCCESS","responses":[[\#(items)]]}"#))
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await RecommendationsClient().widgets(for: .segmentify(try Fixtures.segmentify(server.base)), as: Product.self,
                                                              budget: Fixtures.patience)
            }
            #expect(error?.kind == .decodingFailed)
            // Listed up to the bound, the rest counted.
            #expect(error?.report?.notices.count == DecodingReport.mostListed)
            #expect(error?.report?.noticeCount == 5_000)
            let lines = error?.description.split(separator: "\n") ?? []
            #expect(lines.count == 11, "\(lines.prefix(3))")
            #expect(lines.first == "segmentify: no widget decoded: notice: skippedItem: a sendBannerDetails0 item is not a recommendation block at $.responses[0][0]")
            #expect(lines.last == "… and 4990 more (the report lists the first 1000 of each and counts the rest)")
        }
    }

    @Test func anHTTPErrorWithoutACodeIsItsStatus() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(status: 401, body: #"{"message":"bad access key"}"#))
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await RecommendationsClient().widgets(for: .reteno(try Fixtures.reteno(server.base)), as: Product.self, budget: Fixtures.patience)
            }
            #expect(error?.kind == .httpStatus)
            #expect(error?.status == 401)
            #expect(error?.description == #"reteno: answered HTTP 401: {"message":"bad access key"}"#)
        }
    }

    /// A request with a body (Reteno's) is not sent on by a redirect (it would go without its body): the
    /// failure says where the vendor points.
    @Test func aRedirectedRequestSaysWhereTheVendorPoints() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(status: 308, body: "moved", location: "https://api.vendor.example/recoms"))
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await RecommendationsClient().widgets(for: .reteno(try Fixtures.reteno(server.base)), as: Product.self, budget: Fixtures.patience)
            }
            #expect(error?.kind == .httpStatus)
            #expect(error?.status == 308)
            #expect(error?.description.hasPrefix("reteno: answered HTTP 308: a redirect to https://api.vendor.example/recoms") == true,
                    "\(String(describing: error))")
        }
    }

    @Test func anAnswerThatDoesNotDecodeSaysWhere() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: #"{"recoms":[{"productId":"a"},"#))
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await RecommendationsClient().widgets(for: .reteno(try Fixtures.reteno(server.base)), as: Product.self, budget: Fixtures.patience)
            }
            #expect(error?.kind == .decodingFailed)
            #expect(error?.payloadError?.kind == .invalidJSON)
            #expect(error?.payloadError?.position != nil)
        }
    }

    @Test func productsThatDoNotFitTheModelComeWithTheReport() async throws {
        try await withVendorServer { server in
            // No product has a name, which the model requires.
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: #"{"recoms":[{"productId":"a"},{"productId":"b"}]}"#))
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await RecommendationsClient().widgets(for: .reteno(try Fixtures.reteno(server.base)), as: Product.self, budget: Fixtures.patience)
            }
            #expect(error?.kind == .decodingFailed)
            #expect(error?.report?.failures.count == 2)
            #expect(error?.report?.failures.first?.productId == "a")
        }
    }

    @Test func anAnswerOverTheLimitIsTooLarge() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: Fixtures.retenoReply(prefix: "big", count: 50)))
            let client = RecommendationsClient(maxReplyBytes: 1000)
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await client.widgets(for: .reteno(try Fixtures.reteno(server.base)), as: Product.self, budget: Fixtures.patience)
            }
            #expect(error?.kind == .tooLarge)
        }
    }

    @Test func aSegmentifyPageGetsItsBlocks() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.segmentifyPath, otherwise: .init(body: try Fixtures.payload("segmentify-product-page")))
            let request = try Fixtures.segmentify(server.base)
            let products = try await RecommendationsClient().widgets(for: .segmentify(request), as: Product.self, budget: Fixtures.patience)
            #expect(products.widgets.count == 4)
            // What reached the vendor is the request's body, byte for byte.
            #expect(try await server.lastBody(Fixtures.segmentifyPath) == String(decoding: request.body, as: UTF8.self))
        }
    }
}
