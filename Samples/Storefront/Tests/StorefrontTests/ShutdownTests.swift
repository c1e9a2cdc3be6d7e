import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StorefrontKit

@Suite("Shutdown and restart")
struct ShutdownTests {
    @Test func eventsNotDeliveredByTheDeadlineAreSentByTheNextStart() async throws {
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: journal) }
        let click = ClickToken(vendor: .segmentify, instanceId: "scn_1", interactionId: "act_1", productId: "100900", position: 3,
                               destination: "/products/100900", expires: Date())
        let context = Storefront.context(visitor: Visitor(id: "0123456789abcdef0123456789abcdef", session: "fedcba9876543210fedcba9876543210"), pageURL: nil)

        // The vendor is down: the drain's deadline passes with the click still in the journal.
        let down = try StorefrontTracking(directory: journal, settings: VendorSettings(standIn: URL(string: "http://127.0.0.1:9")!),
                                          drain: .milliseconds(300))
        try await Self.whileRunning(down) { down.clicked(click, context: context) }
        #expect(down.segmentify.statistics.pending == 1)
        #expect(down.segmentify.statistics.delivered == 0)

        // Next start, vendor up: the click left by the last run arrives.
        let vendor = try StandInVendor()
        let vendorApp = Application(router: vendor.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Harness.serverLogger)
        try await vendorApp.test(.live) { client in
            let base = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
            let up = try StorefrontTracking(directory: journal, settings: VendorSettings(standIn: base), drain: .seconds(10))
            #expect(up.segmentify.statistics.pending == 1)
            try await Self.whileRunning(up) {}
            #expect(up.segmentify.statistics.delivered == 1 && up.segmentify.statistics.pending == 0)
        }
        let events = vendor.received.flatMap { $0.body.arrayValue ?? [] }
        #expect(events.count == 1)
        #expect(events.first?["type"]?.stringValue == "click")
        #expect(events.first?["interactionId"]?.stringValue == "100900")
    }

    /// Runs both trackers while `body` runs, then stops them: each drains for its deadline.
    static func whileRunning(_ tracking: StorefrontTracking, _ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await tracking.run() }
            try await body()
            group.cancelAll()
            try await group.waitForAll()
        }
    }
}
