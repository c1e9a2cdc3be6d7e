import Foundation
import HTTPStandIn
import PostgresNIO
import RecoDestinations
import RecoKit
import RecoKitPostgres
import RecoKitTesting
import RecoTracking
import Synchronization
import Testing

/// A vendor that is down for a while and then refuses one event: the store keeps everything through the
/// outage, the refused batch is bisected down to that event, and only it is dead-lettered, with the
/// vendor's reason, in the dead letters table.
extension PostgresServerTests {
@Suite struct PostgresPoisonTests {
    /// The vendor: 503 for its first `outage` requests, then 400 for any batch naming the product `poison`,
    /// else SUCCESS.
    final class Vendor: Sendable {
        let outage: Int
        let poison: String
        private let state = Mutex<(requests: Int, delivered: Set<String>, refused: Int)>((0, [], 0))
        init(outage: Int, poison: String) { self.outage = outage; self.poison = poison }

        var delivered: Set<String> { state.withLock { $0.delivered } }
        var refusedBatches: Int { state.withLock { $0.refused } }
        var requests: Int { state.withLock { $0.requests } }

        func answer(_ request: StandIn.Request) -> StandIn.Reply {
            let number = state.withLock { $0.requests += 1; return $0.requests }
            if number <= outage { return StandIn.Reply(status: 503, body: Array("down for maintenance".utf8)) }
            let events = Self.events(in: request.body)
            if String(decoding: request.body, as: UTF8.self).contains("\"\(poison)\"") {
                state.withLock { $0.refused += 1 }
                return StandIn.Reply(status: 400, body: Array("product \(poison) is unknown".utf8))
            }
            state.withLock { $0.delivered.formUnion(events) }
            return StandIn.Reply(status: 200, headers: [("Content-Type", "application/json")], body: Array(#"{"statusCode":"SUCCESS"}"#.utf8))
        }

        /// Each event's id in a Segmentify request body.
        static func events(in body: [UInt8]) -> [String] {
            var found: [String] = []
            func visit(_ value: Any) {
                if let object = value as? [String: Any] {
                    if let id = object["eventId"] as? String { found.append(id) }
                    object.values.forEach(visit)
                } else if let array = value as? [Any] {
                    array.forEach(visit)
                }
            }
            if let json = try? JSONSerialization.jsonObject(with: Data(body)) { visit(json) }
            return found
        }
    }

    @Test func anOutageThenAPoisonEventDeadLettersOnlyThatEvent() async throws {
        try await PostgresServer.withSchema { client, schema in
            let vendor = Vendor(outage: 6, poison: "P-37")
            let standIn = try StandIn { vendor.answer($0) }
            defer { standIn.stop() }
            var configuration = TrackerConfiguration()
            configuration.requestTimeout = .seconds(5)
            configuration.flushInterval = .milliseconds(20)
            configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(50),
                                                    configurationDelay: .milliseconds(50))
            let store = try PostgresTrackingStore(client: client, queue: "segmentify", schema: schema, logger: PostgresServer.logger)
            let tracker = Tracker(destination: SegmentifyDestination(dataCenter: standIn.base, apiKey: "k", origin: "shop.example"),
                                  store: store, configuration: configuration)
            let context = InteractionContext(userId: "u1", sessionId: "s1")
            let (ids, letters) = try await whileRunning(tracker) {
                let ids = try (1...120).map { number in
                    try tracker.track(Interaction(kind: .click, instanceId: "rec_1", interactionId: "act_1", productId: "P-\(number)",
                                                  context: context)).description
                }
                try await tracker.flush()
                #expect(await tracker.waitUntilIdle(timeout: .seconds(120)))
                return (ids, try await tracker.deadLetters())
            }
            let poisonId = ids[36]
            #expect(vendor.requests > vendor.outage, "the outage never ended")
            #expect(vendor.refusedBatches > 1, "the refused batch was not bisected")
            #expect(vendor.delivered == Set(ids).subtracting([poisonId]))
            #expect(letters.map(\.event.id.description) == [poisonId])
            #expect(letters.first?.reason == "HTTP 400: product P-37 is unknown")
            let status = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "segmentify")
            #expect(status.pendingEvents == 0 && status.deadLetters == 1, "\(status)")
        }
    }
}
}
