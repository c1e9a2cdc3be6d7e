import RecoDestinations
import Foundation
import RecoKitTesting
import RecoTracking
import RecoVendors
import Testing

/// A tracker with a file journal, over `URLSessionTransport`, against a vendor on 127.0.0.1 that answers
/// each request as a seed picks (`FaultyVendor`: connections closed or reset, 503s, replies cut short, web
/// pages, no reply, a reply that trickles without end, each met at least once): it must deliver every
/// event it took, none dead-lettered, and none of the faults may hold a sender past its request timeout.
/// The storefront runs the same against its own transport over AsyncHTTPClient, where it found the
/// trickling reply holding a sender.
@Suite("A tracker over URLSession against a faulty vendor")
struct TransportFaultTests {
    enum Vendor: String, CaseIterable, Sendable {
        case segmentify, reteno

        func destination(_ base: URL) -> any TrackingDestination {
            switch self {
            case .segmentify: SegmentifyDestination(dataCenter: base, apiKey: "k", origin: "shop.example", maxEvents: 20)
            case .reteno: RetenoDestination(base: base, accessKey: "k", maxEvents: 20)
            }
        }
    }

    @Test(arguments: Vendor.allCases)
    func everyTrackedEventIsDeliveredWhateverTheConnectionDoes(_ vendorName: Vendor) async throws {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_TRANSPORT_FAULT_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("TransportFaultTests \(vendorName) seed: \(seed) (RECOKIT_TRANSPORT_FAULT_SEED=\(seed) replays it)")
        // Every fault first (in the seeded order), so that each is surely met; then as the seed picks.
        let vendor = try FaultyVendor(seed: seed, faultsFirst: true)
        defer { vendor.stop() }
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("transport-fault-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: journal) }
        var configuration = TrackerSetup(journal: journal, durability: .batched)
        configuration.requestTimeout = .seconds(1)
        // A web page instead of the API reads as a wrong address, tried again after `configurationDelay`.
        configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100),
                                                configurationDelay: .milliseconds(100))
        let tracker = try Tracker(destination: vendorName.destination(vendor.baseURL), configuration: configuration,
                                  transport: URLSessionTransport())
        let context = InteractionContext(userId: "-897541074991628287", sessionId: "-2739101928374651", lang: "TR", currency: "TRY",
                                         pageUrl: "https://shop.example/p/1")
        var tracked: [String] = []
        for number in 1...300 {
            let interaction = Interaction(kind: number % 3 == 0 ? .click : .impression, instanceId: "r1107v1482", interactionId: "act_1",
                                          productId: "P-\(number)", position: number % 12 + 1, context: context)
            tracked.append(try tracker.track(interaction).description)
            if number % 50 == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        try await tracker.flush()
        let idle = await tracker.waitUntilIdle(timeout: .seconds(120))
        let summary = await tracker.shutdown(deadline: .seconds(5))
        let answers = vendor.answersInWords
        print("TransportFaultTests \(vendorName): \(summary); the vendor's answers: \(answers); last error: \(tracker.statistics.lastError ?? "none")")
        #expect(idle, "seed \(seed): still sending after two minutes: \(summary), \(answers)")
        #expect(summary.deadLettered == 0, "seed \(seed): \(summary): \(tracker.statistics.lastError ?? "")")
        let missing = vendor.unconfirmed(tracked)
        #expect(missing.isEmpty, "seed \(seed): \(missing.count) of \(tracked.count) events never confirmed, the first \(missing.prefix(3)); \(summary), \(answers)")
        #expect(vendor.faultsNotMet.isEmpty, "seed \(seed): faults never met: \(vendor.faultsNotMet)")
    }

    /// A reply that never comes is given up at the request's timeout (the words say it was the timeout that
    /// answered; no test here measures time), in words a log reader can act on
    /// (Foundation on Linux has none for a `URLError` the transport makes itself: the tracker's last error
    /// read `Error Domain=NSURLErrorDomain Code=-1001 "(null)"`).
    @Test func aReplyThatNeverComesIsGivenUpAtTheTimeoutInWords() async throws {
        for fault in [FaultyVendor.Answer.noReply, .endlessTrickle] {
            let vendor = try FaultyVendor(seed: 1, successPercent: 0, faults: [fault])
            defer { vendor.stop() }
            let request = VendorRequest(method: "POST", url: vendor.baseURL.appendingPathComponent("events"), headers: [], body: Data("[]".utf8))
            do {
                _ = try await URLSessionTransport().send(request, timeout: .milliseconds(500))
                Issue.record("\(fault): a reply came")
            } catch {
                #expect((error as? URLError)?.code == .timedOut, "\(fault): \(error)")
                #expect(ErrorWords.of(error).hasPrefix("no whole reply within 0.5 seconds (127.0.0.1)"), "\(fault): \(ErrorWords.of(error))")
            }
        }
    }
}
