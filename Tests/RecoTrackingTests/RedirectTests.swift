import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

/// A vendor's tracking address that answers with a redirect (an address moved, `http://` sent on to
/// `https://`, a load balancer's rule). Foundation follows a redirect without the request's body: 301, 302
/// and 303 as a GET, 307 and 308 as an empty POST; the new address answered 200, and every event of the
/// batch was counted as delivered though none had been sent (the relay said `delivered 1` for an event the
/// vendor never saw, for each of the five codes). A request with a body is now never sent on: the
/// tracker keeps its events, says where the vendor points, and delivers them once it is answered again.
extension IntegrationSuite {
    @Suite("Redirects: no event is counted as delivered by an address it was never sent to", .serialized)
    struct RedirectTests {
        static let codes = [301, 302, 303, 307, 308]

        /// The first three requests are redirected, their bodies saying SUCCESS or BAD_INPUT (a redirect's
        /// body answers for no event: taken as an answer it would count the batch delivered or dead-letter
        /// it); every event still reaches the events address, none goes to the new one, and the tracker
        /// said why it waited.
        @Test(arguments: codes)
        func aRedirectedBatchIsKeptAndDeliveredToTheVendor(_ code: Int) async throws {
            let server = try ScriptedServer()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let steps: [[String: JSONValue]] = ["SUCCESS", "BAD_INPUT", "SUCCESS"].map { said in
                ["status": .number(JSONNumber(code)), "location": "/moved/add/events/v1.json", "code": .string(said)]
            }
            try await server.script(steps)
            var configuration = TrackerConfiguration(journal: directory, durability: .batched)
            configuration.flushInterval = .milliseconds(20)
            configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200),
                                                    configurationDelay: .milliseconds(100))
            let tracker = try Tracker(destination: SegmentifyDestination(dataCenter: server.base, apiKey: "test-key", origin: "www.shop.example"),
                                      configuration: configuration, transport: URLSessionTransport())
            var ids: Set<String> = []
            for number in 1...20 { ids.insert(try tracker.track(Fixtures.click("P-\(number)")).description) }
            await tracker.waitUntilDelivered()
            let summary = await tracker.shutdown(deadline: .seconds(5))
            #expect(summary == ShutdownSummary(delivered: 20, pending: 0, deadLettered: 0))
            #expect(Set(try await server.received().map(\.id)) == ids)
            let log = try await server.log()
            #expect(!log.contains { $0.hasPrefix("moved") }, "\(log)")
            #expect(log.prefix(3) == ArraySlice(repeating: "\(code)", count: 3), "\(log)")
            let error = tracker.statistics.lastError ?? ""
            #expect(error.contains("HTTP \(code): the vendor redirects to /moved/add/events/v1.json"), "\(error)")
        }

        /// `recokit relay` against a vendor that always redirects: nothing is delivered, the lines stay
        /// pending, and the summary says where the vendor points.
        @Test func theRelayKeepsEventsAVendorRedirects() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let step: [String: JSONValue] = ["status": 301, "location": "https://moved.example/add/events/v1.json", "code": "SUCCESS"]
                try await server.script(Array(repeating: step, count: 50))
                let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                              server.base.absoluteString, "--api-key", "k", "--deadline", "2"])
                relay.feed((1...5).map { #"{"type":"click","instanceId":"rec_1","productId":"P-\#($0)","userId":"u1","sessionId":"s1"}"# })
                #expect(relay.wait() == 0, "\(relay.stderr)")
                #expect(relay.stderr.contains("relay: delivered 0, pending 5, dead-lettered 0"), "\(relay.stderr)")
                #expect(relay.stderr.contains("HTTP 301: the vendor redirects to https://moved.example/add/events/v1.json"), "\(relay.stderr)")
                #expect(try await server.received().isEmpty)
            }
        }

        /// A request without a body (a recommendations GET) still follows a redirect.
        @Test func aRequestWithoutABodyFollowsARedirect() async throws {
            let server = try ScriptedServer()
            defer { server.stop() }
            let reply = try await URLSessionTransport().send(VendorRequest(method: "GET", url: server.base.appendingPathComponent("_redirect"), headers: [], body: Data()),
                                                             timeout: .seconds(5))
            #expect(reply.status == 200)
            #expect(try await server.log() == ["moved GET"])
        }
    }
}
