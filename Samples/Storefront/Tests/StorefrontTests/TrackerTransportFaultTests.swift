import AsyncHTTPClient
import Foundation
import RecoKit
import RecoKitTesting
import RecoTracking
import RecoVendors
import Testing
@testable import StorefrontKit

/// The storefront's trackers deliver over AsyncHTTPClient, not the URLSession transport RecoKit's own
/// fault tests use. Here a vendor on 127.0.0.1 answers each request as a seed picks (`FaultyVendor`:
/// connections closed or reset, 503s, replies cut short, web pages, no reply, a reply that trickles
/// without end), and a tracker with a file journal must deliver every event it took, none dead-lettered:
/// every fault is the transport's to report and the tracker's to try again, and none may hold a sender
/// past its request timeout. Each fault is met at least once. It found the reply that trickles: the
/// transport's timeout ended with the reply's head, so such a reply held a sender for as long as the
/// vendor kept it up, and delivery stopped (200 events: 60 still pending after 40 s, where a reply
/// that never came cost a second).
@Suite("The storefront's tracker over AsyncHTTPClient against a faulty vendor")
struct TrackerTransportFaultTests {
    @Test func everyTrackedEventIsDeliveredWhateverTheConnectionDoes() async throws {
        let seed = Seed.fromEnvironmentOrRandom()
        print("TrackerTransportFaultTests seed: \(seed) (STOREFRONT_TEST_SEED=\(seed) replays it)")
        // Every fault first (in the seeded order), so that each is surely met; then as the seed picks.
        let vendor = try FaultyVendor(seed: seed, faultsFirst: true)
        defer { vendor.stop() }
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-fault-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: journal) }
        var configuration = TrackerConfiguration(journal: journal, durability: .batched)
        configuration.requestTimeout = .seconds(1)
        // A web page instead of the API reads as a wrong address, tried again after `configurationDelay`.
        configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100),
                                                configurationDelay: .milliseconds(100))
        let destination = SegmentifyDestination(dataCenter: vendor.baseURL, apiKey: "k",
                                                origin: "shop.example", maxEvents: 20)
        let tracker = try Tracker(destination: destination, configuration: configuration, transport: AsyncHTTPClientTransport())
        let context = InteractionContext(userId: "-897541074991628287", sessionId: "-2739101928374651", lang: "TR", currency: "TRY",
                                         pageUrl: "https://shop.example/p/1")
        var tracked: [String] = []
        for number in 1...400 {
            let click = Interaction(kind: .click, instanceId: "rec_pdp_1", interactionId: "act_1", productId: "P-\(number)",
                                    position: number % 12 + 1, context: context)
            tracked.append(try tracker.track(click).description)
            if number % 50 == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        try tracker.flush()
        let idle = await tracker.waitUntilIdle(timeout: .seconds(120))
        let summary = await tracker.shutdown(deadline: .seconds(5))
        let answers = vendor.answersInWords
        print("TrackerTransportFaultTests: \(summary); the vendor's answers: \(answers); last error: \(tracker.statistics.lastError ?? "none")")
        #expect(idle, "seed \(seed): still sending after two minutes: \(summary), \(answers)")
        #expect(summary.deadLettered == 0, "seed \(seed): \(summary): \(tracker.statistics.lastError ?? "")")
        let missing = vendor.unconfirmed(tracked)
        #expect(missing.isEmpty, "seed \(seed): \(missing.count) of \(tracked.count) events never confirmed, the first \(missing.prefix(3)); \(summary), \(answers)")
        #expect(vendor.faultsNotMet.isEmpty, "seed \(seed): faults never met: \(vendor.faultsNotMet)")
    }
}
