import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

/// Answers that do not come from the vendor's API, which a tracker counted as delivery.
///
/// A redirect (an address moved, `http://` sent on to `https://`, a load balancer's rule): Foundation
/// follows it without the request's body, 301, 302 and 303 as a GET, 307 and 308 as an empty POST; the new
/// address answered 200, and every event of the batch was counted as delivered though none had been sent
/// (the relay said `delivered 1` for an event the vendor never saw, for each of the five codes). A request
/// with a body is now never sent on: the tracker keeps its events, says where the vendor points, and
/// delivers them once it is answered again.
///
/// A web page (the vendor's website given instead of its API, whose pages answer any path with 200, or a
/// proxy's login page): its 200 said nothing of the events, and they were counted delivered.
extension RelayProcessSuite {
    @Suite("Answers not from the vendor's API: no event is counted delivered by them", .serialized)
    struct AnswersNotFromTheVendorTests {
        static let codes = [301, 302, 303, 307, 308]

        /// A Segmentify tracker over a fresh `URLSessionTransport`, waiting 100 ms after a misconfiguration.
        static func tracker(_ server: ScriptedServer, _ directory: URL) throws -> Tracker {
            var configuration = TrackerSetup(journal: directory, durability: .batched)
            configuration.flushInterval = .milliseconds(20)
            configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200),
                                                    configurationDelay: .milliseconds(100))
            return try Tracker(destination: SegmentifyDestination(dataCenter: server.base, apiKey: "test-key", origin: "www.shop.example"),
                               configuration: configuration, transport: URLSessionTransport())
        }

        /// Tracks `count` clicks and shuts down once they are delivered: every one reached the vendor.
        static func expectAllDelivered(_ count: Int, by tracker: Tracker, to server: ScriptedServer) async throws {
            var ids: Set<String> = []
            for number in 1...count { ids.insert(try tracker.track(Fixtures.click("P-\(number)")).description) }
            await tracker.waitUntilDelivered()
            let summary = await tracker.shutdown(deadline: .seconds(5))
            #expect(summary == ShutdownSummary(delivered: count, pending: 0, deadLettered: 0))
            #expect(Set(try await server.received().map(\.id)) == ids)
        }

        /// The first two requests are answered with a web page: the events are kept, the tracker says
        /// why, and they go out once the vendor answers.
        @Test func aWebPageIsNoAnswerForEvents() async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                try await server.script([["page": true], ["page": true]])
                let tracker = try Self.tracker(server, directory)
                try await Self.expectAllDelivered(20, by: tracker, to: server)
                #expect(try await server.log().prefix(2) == ["page", "page"])
                let error = tracker.statistics.lastError ?? ""
                #expect(error.contains("HTTP 200: the address answered with a web page, not the vendor's API"), "\(error)")
            }
        }

        /// The first three requests are redirected, their bodies saying SUCCESS or BAD_INPUT (a redirect's
        /// body answers for no event: taken as an answer it would count the batch delivered or dead-letter
        /// it); every event still reaches the events address, none goes to the new one, and the tracker
        /// said why it waited.
        @Test(arguments: codes)
        func aRedirectedBatchIsKeptAndDeliveredToTheVendor(_ code: Int) async throws {
            try await IntegrationSuite.withVendorAndAJournal { server, directory in
                let steps: [[String: JSONValue]] = ["SUCCESS", "BAD_INPUT", "SUCCESS"].map { said in
                    ["status": .number(JSONNumber(code)), "location": "/moved/add/events/v1.json", "code": .string(said)]
                }
                try await server.script(steps)
                let tracker = try Self.tracker(server, directory)
                try await Self.expectAllDelivered(20, by: tracker, to: server)
                let log = try await server.log()
                #expect(!log.contains { $0.hasPrefix("moved") }, "\(log)")
                #expect(log.prefix(3) == ArraySlice(repeating: "\(code)", count: 3), "\(log)")
                let error = tracker.statistics.lastError ?? ""
                #expect(error.contains("HTTP \(code): the vendor redirects to /moved/add/events/v1.json"), "\(error)")
            }
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
            let server = try await ScriptedServer.started()
            defer { server.stop() }
            let reply = try await URLSessionTransport().send(VendorRequest(method: "GET", url: server.base.appendingPathComponent("_redirect"), headers: [], body: Data()),
                                                             timeout: .seconds(5))
            #expect(reply.status == 200)
            #expect(try await server.log() == ["moved GET"])
        }
    }
}
