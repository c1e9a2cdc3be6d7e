import Foundation
import Testing
import RecoPage

/// The page's budget against a real HTTP server: a slow vendor, by its headers or by its body, costs
/// the page its blocks, not its time.
///
/// No test measures time: a slow vendor is one whose reply is held until the test lets it go, after
/// the call has returned (so the call can only have returned by its budget), and a vendor that fails
/// fast is one whose failure comes back as itself, not as out of budget, within a budget of a minute.
@Suite("Recommendations client: budgets")
struct BudgetTests {
    /// Long enough for the request to reach the vendor on a machine busy with the rest of the suite (the
    /// held request is counted there): a sanitized build beside it took more than 300 ms to send it.
    static let budget = Duration.seconds(2)

    @Test func slowHeadersAreOutOfBudget() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: Fixtures.retenoReply(prefix: "a"), gate: "headers"))
            let client = RecommendationsClient()
            let request = RecommendationsRequest.reteno(try Fixtures.reteno(server.base))
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await client.widgets(for: request, as: Product.self, budget: Self.budget)
            }
            try await server.open("headers")
            #expect(error?.kind == .outOfBudget)
            #expect(error?.description == "reteno: no answer within 2000 ms")
            #expect(try await server.count(Fixtures.retenoPath()) == 1)
        }
    }

    @Test func aSlowBodyIsOutOfBudget() async throws {
        try await withVendorServer { server in
            let body = try Fixtures.payload("segmentify-product-page")
            try await server.route(Fixtures.segmentifyPath, otherwise: .init(body: body, bodyGate: "body"))
            let client = RecommendationsClient()
            let request = RecommendationsRequest.segmentify(try Fixtures.segmentify(server.base))
            let error = await #expect(throws: NoWidgets.self) {
                _ = try await client.widgets(for: request, as: Product.self, budget: Self.budget)
            }
            try await server.open("body")
            #expect(error?.kind == .outOfBudget)
            #expect(try await server.count(Fixtures.segmentifyPath) == 1)
        }
    }

    @Test func aVendorThatFailsFastDoesNotHoldThePage() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.segmentifyPath, otherwise: .init(status: 503, body: "down for maintenance"))
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: Fixtures.retenoReply(prefix: "r")))
            let client = RecommendationsClient()
            let requests = [RecommendationsRequest.segmentify(try Fixtures.segmentify(server.base)),
                            RecommendationsRequest.reteno(try Fixtures.reteno(server.base), title: "Similar")]
            let page = await client.widgets(for: requests, as: Product.self, budget: Fixtures.patience)
            #expect(page.map(\.vendor) == [.segmentify, .reteno])
            #expect(page[0].failure?.kind == .httpStatus)
            #expect(page[0].failure?.status == 503)
            #expect(page[1].widgets.map(\.title) == ["Similar"])
            #expect(page.allWidgets().flatMap { $0.items.map(\.product.productId) } == ["r-1", "r-2", "r-3"])
        }
    }

    @Test func anUnreachableVendorIsANetworkFailureAtOnce() async throws {
        // A port with nothing listening: the server is started and stopped to find one.
        let base = try await withVendorServer { server in server.base }
        let client = RecommendationsClient()
        let error = await #expect(throws: NoWidgets.self) {
            _ = try await client.widgets(for: .reteno(try Fixtures.reteno(base)), as: Product.self, budget: Fixtures.patience)
        }
        #expect(error?.kind == .network)
        #expect(error?.networkError != nil)
        #expect(error?.description.hasPrefix("reteno: unreachable: ") == true)
    }

    @Test func requestsToOneVendorAreBounded() async throws {
        try await withVendorServer { server in
            try await server.route(Fixtures.retenoPath(), otherwise: .init(body: Fixtures.retenoReply(prefix: "b"), headerDelay: 0.3))
            let client = RecommendationsClient(maxInFlightPerVendor: 2)
            let request = RecommendationsRequest.reteno(try Fixtures.reteno(server.base))
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<6 {
                    group.addTask { (try? await client.widgets(for: request, as: Product.self, budget: Fixtures.patience)) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results == Array(repeating: true, count: 6))
            #expect(try await server.count(Fixtures.retenoPath()) == 6)
            #expect(try await server.maxConcurrent(Fixtures.retenoPath()) <= 2)
            #expect(client.inFlight(to: .reteno) == 0)
        }
    }
}
