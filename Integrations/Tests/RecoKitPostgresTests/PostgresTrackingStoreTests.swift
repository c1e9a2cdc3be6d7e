import Foundation
import PostgresNIO
import RecoDestinations
import RecoKit
import RecoKitPostgres
import RecoKitTesting
import RecoTracking
import Testing

/// The store through the protocol, against a real server, each test in a schema of its own.
extension PostgresServerTests {
@Suite struct PostgresTrackingStoreTests {
    /// Records as a tracker encodes them: one click each.
    static func records(_ count: Int, from first: Int = 1) throws -> [StoredRecord] {
        let tracker = Tracker(destination: SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:9")!, apiKey: "k", origin: "shop.example"),
                              store: JournalStore.memory())
        let context = InteractionContext(userId: "u1", sessionId: "s1")
        return try (first..<(first + count)).map { number in
            try tracker.record(Interaction(kind: .click, instanceId: "rec_1", interactionId: "act_1", productId: "P-\(number)", context: context))
        }
    }

    // The stores of these tests take claims of exactly the request's size (`claimRequests: 1`) unless a
    // test says otherwise.

    static let everything = ClaimRequest(maxEvents: 1000, maxBytes: 1 << 20, linger: .zero, force: true)

    @Test func appendedRecordsAreClaimedOnceSettledAndCounted() async throws {
        try await PostgresServer.withSchema { client, schema in
            let one = try PostgresTrackingStore(client: client, queue: "segmentify", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            let other = try PostgresTrackingStore(client: client, queue: "segmentify", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            let elsewhere = try PostgresTrackingStore(client: client, queue: "reteno", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            let records = try Self.records(10)
            for record in records { try one.append(record) }
            try elsewhere.append(try Self.records(1, from: 100)[0])
            try await one.commit()
            try await elsewhere.commit()

            let request = ClaimRequest(maxEvents: 4, maxBytes: 1 << 20, linger: .zero, force: true)
            let first = try #require(try await one.claim(request))
            let second = try #require(try await other.claim(request))
            #expect(first.records.map(Array.init) == records[0..<4].map(\.bytes))
            #expect(second.records.map(Array.init) == records[4..<8].map(\.bytes))
            #expect(first.events == 4 && first.attempts == 0)

            var status = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "segmentify")
            #expect(status.pendingEvents == 10 && status.claimedEvents == 8 && status.deadLetters == 0)
            #expect(status.oldestPending != nil)

            try await one.settle(first, deadLetters: [DeadLetterEntry(record: first.records[1], reason: "400: bad product")])
            await other.giveBack(second)
            // A batch given back comes again, its attempt not counted.
            let again = try #require(try await one.claim(request))
            #expect(again.records.map(Array.init) == records[4..<8].map(\.bytes) && again.attempts == 0)
            try await one.settle(again, deadLetters: [])
            let rest = try #require(try await other.claim(request))
            #expect(rest.events == 2)
            try await other.settle(rest, deadLetters: [])
            #expect(try await one.claim(request) == nil)

            status = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "segmentify")
            #expect(status.pendingEvents == 0 && status.claimedEvents == 0 && status.deadLetters == 1 && status.oldestPending == nil)
            let otherQueue = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "reteno")
            #expect(otherQueue.pendingEvents == 1)

            var letters: [DeadLetter] = []
            #expect(try await one.deadLetters { letters.append($0) } == 1)
            #expect(letters.first?.reason == "400: bad product" && letters.first?.event.interaction.productId == "P-2")
            #expect(try await one.requeueDeadLetters() == 1)
            let requeued = try #require(try await one.claim(request))
            #expect(requeued.records.map(Array.init) == [records[1].bytes])
            try await one.settle(requeued, deadLetters: [])
            #expect(try await one.deadLetters { _ in } == 0)
            for store in [one, other, elsewhere] { try await store.close() }
        }
    }

    @Test func aLeaseThatEndsUnsettledIsClaimedAgainWithItsAttemptCounted() async throws {
        try await PostgresServer.withSchema { client, schema in
            let dying = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            let survivor = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            for record in try Self.records(3) { try dying.append(record) }
            try await dying.commit()
            var request = Self.everything
            request.lease = .milliseconds(1)
            let lost = try #require(try await dying.claim(request))
            // Its process "dies": nothing settles or gives it back. Once the lease ends, another claims it.
            var taken: ClaimedBatch?
            for _ in 0..<1000 where taken == nil {
                try await Task.sleep(for: .milliseconds(5))
                taken = try await survivor.claim(Self.everything)
            }
            let batch = try #require(taken)
            #expect(batch.id == lost.id && batch.attempts == 1 && batch.events == 3)
            // Held under a long lease, it is not claimed again.
            #expect(try await dying.claim(Self.everything) == nil)
            try await survivor.settle(batch, deadLetters: [])
        }
    }

    @Test func aRetriedAppendDoesNotDuplicateAnEvent() async throws {
        try await PostgresServer.withSchema { client, schema in
            let store = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            let records = try Self.records(2)
            try store.append(records[0])
            try await store.commit()
            try store.append(records[0])
            try store.append(records[1])
            try await store.commit()
            let batch = try #require(try await store.claim(Self.everything))
            #expect(batch.records.map(Array.init) == records.map(\.bytes))
        }
    }

    @Test func aClaimTakesClaimRequestsRequestsWorth() async throws {
        try await PostgresServer.withSchema { client, schema in
            let store = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 3, logger: PostgresServer.logger)
            for record in try Self.records(10) { try store.append(record) }
            try await store.commit()
            let batch = try #require(try await store.claim(ClaimRequest(maxEvents: 2, maxBytes: 1 << 20, linger: .zero)))
            #expect(batch.events == 6)
            let bytes = try Self.records(1)[0].bytes.count
            let small = try #require(try await store.claim(ClaimRequest(maxEvents: 100, maxBytes: bytes, linger: .zero)))
            #expect(small.events == 3, "three requests' worth of bytes")
        }
    }

    @Test func aBatchWaitsForItsLingerUnlessFull() async throws {
        try await PostgresServer.withSchema { client, schema in
            let store = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            for record in try Self.records(3) { try store.append(record) }
            try await store.commit()
            #expect(try await store.claim(ClaimRequest(maxEvents: 10, maxBytes: 1 << 20, linger: .seconds(3600))) == nil)
            let full = try #require(try await store.claim(ClaimRequest(maxEvents: 2, maxBytes: 1 << 20, linger: .seconds(3600))))
            #expect(full.events == 2)
        }
    }

    @Test func aRelayStoreRefusesWhatAFailedCommitCarriedNeverWritingItLater() async throws {
        try await PostgresServer.withSchema { client, schema in
            let store = try PostgresTrackingStore(client: client, queue: "q", schema: schema, commitInterval: nil, claimRequests: 1, logger: PostgresServer.logger)
            let records = try Self.records(2)
            try store.append(records[0])
            // The table of datasets is away: the commit fails.
            try await client.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(schema).datasets RENAME TO away"))
            await #expect(throws: TrackingError.self) { try await store.commit() }
            #expect(store.status.error?.contains("PostgreSQL") == true)
            try await client.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(schema).away RENAME TO datasets"))
            try store.append(records[1])
            try await store.commit()
            let batch = try #require(try await store.claim(Self.everything))
            #expect(batch.records.map(Array.init) == [records[1].bytes])
        }
    }

    @Test func anAppendInTheCallersTransactionCommitsWithItOrNotAtAll() async throws {
        try await PostgresServer.withSchema { client, schema in
            let store = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).orders (id int PRIMARY KEY)"))
            let records = try Self.records(2)
            struct Abandoned: Error {}
            let abandoned = await #expect(throws: PostgresTransactionError.self) {
                try await client.withTransaction(logger: PostgresServer.logger) { connection in
                    try await connection.query("INSERT INTO \(unescaped: schema).orders VALUES (1)", logger: PostgresServer.logger)
                    try await store.append(records[0], on: connection)
                    throw Abandoned()
                }
            }
            #expect(abandoned?.closureError is Abandoned)
            #expect(try await store.claim(Self.everything) == nil)
            try await client.withTransaction(logger: PostgresServer.logger) { connection in
                try await connection.query("INSERT INTO \(unescaped: schema).orders VALUES (2)", logger: PostgresServer.logger)
                try await store.append(records[1], on: connection)
            }
            let batch = try #require(try await store.claim(Self.everything))
            #expect(batch.records.map(Array.init) == [records[1].bytes])
        }
    }

    /// Claims and settles everything `store` can claim now; returns the batches.
    static func drain(_ store: PostgresTrackingStore) async throws -> [ClaimedBatch] {
        var batches: [ClaimedBatch] = []
        while let batch = try await store.claim(everything) {
            try await store.settle(batch, deadLetters: [])
            batches.append(batch)
        }
        return batches
    }

    /// The datasets whose records table exists in `schema`.
    static func recordTables(_ client: PostgresClient, _ schema: String) async throws -> [String] {
        var names: [String] = []
        for try await name in try await client.query(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = \(schema) AND tablename LIKE 'records%' ORDER BY tablename")
            .decode(String.self) { names.append(name) }
        return names
    }

    @Test func aTransactionHeldOpenElsewhereDoesNotHoldDeliveryBack() async throws {
        try await PostgresServer.withSchema { client, schema in
            let store = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            let records = try Self.records(6)
            for record in records[..<3] { try store.append(record) }
            try await store.commit()
            try await client.withConnection { held in
                // A transaction with an id, left idle for the whole delivery (a forgotten session, a long report).
                try await held.query("BEGIN", logger: PostgresServer.logger)
                try await held.query("SELECT pg_current_xact_id()", logger: PostgresServer.logger)
                for record in records[3...] { try store.append(record) }
                try await store.commit()
                let delivered = try await Self.drain(store).flatMap(\.records).map(Array.init)
                #expect(delivered == records.map(\.bytes))
                let status = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "q")
                #expect(status.pendingEvents == 0 && status.claimedEvents == 0)
                try await held.query("ROLLBACK", logger: PostgresServer.logger)
            }
        }
    }

    @Test func aRecordCommittedAfterLaterOnesIsDelivered() async throws {
        try await PostgresServer.withSchema { client, schema in
            let store = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 1, logger: PostgresServer.logger)
            let records = try Self.records(3)
            try await client.withConnection { shop in
                // The shop's transaction appends first (its id and its record's number come first) and commits last.
                try await shop.query("BEGIN", logger: PostgresServer.logger)
                try await store.append(records[0], on: shop)
                try store.append(records[1])
                try store.append(records[2])
                try await store.commit()
                #expect(try await Self.drain(store).flatMap(\.records).map(Array.init) == records[1...].map(\.bytes))
                try await shop.query("COMMIT", logger: PostgresServer.logger)
            }
            #expect(try await Self.drain(store).flatMap(\.records).map(Array.init) == [records[0].bytes])
            let status = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "q")
            #expect(status.pendingEvents == 0)
        }
    }

    @Test func aWhollyDeliveredDatasetIsDroppedNotOneAnAppenderStillHolds() async throws {
        try await PostgresServer.withSchema { client, schema in
            let store = try PostgresTrackingStore(client: client, queue: "q", schema: schema, claimRequests: 1, rotateRecords: 3, logger: PostgresServer.logger)
            let records = try Self.records(9)
            for record in records[..<4] { try store.append(record) }
            try await store.commit()
            try await client.withConnection { shop in
                // A shop's transaction appends to dataset 1 and stays open while it is sealed.
                try await shop.query("BEGIN", logger: PostgresServer.logger)
                try await store.append(records[4], on: shop)
                try await store.maintain()
                #expect(try await Self.recordTables(client, schema) == ["records_1", "records_2"])
                for record in records[5..<7] { try store.append(record) }
                try await store.commit()
                // Everything committed in dataset 1 is delivered, but the shop may still write there: kept.
                let first = try #require(try await store.claim(Self.everything))
                #expect(first.records.map(Array.init) == records[..<4].map(\.bytes))
                try await store.settle(first, deadLetters: [])
                try await store.maintain()
                #expect(try await Self.recordTables(client, schema) == ["records_1", "records_2"])
                try await shop.query("COMMIT", logger: PostgresServer.logger)
            }
            // A batch of dataset 2 claimed and not settled yet; dataset 1's late record delivered.
            let one = ClaimRequest(maxEvents: 1, maxBytes: 1 << 20, linger: .zero, force: true)
            let late = try #require(try await store.claim(one))
            #expect(late.records.map(Array.init) == [records[4].bytes])
            try await store.settle(late, deadLetters: [])
            let open = try #require(try await store.claim(one))
            #expect(open.records.map(Array.init) == [records[5].bytes])
            try await store.maintain()
            #expect(try await Self.recordTables(client, schema) == ["records_2"])
            // Claims on the newer dataset go on across the drop.
            try store.append(records[7])
            try await store.commit()
            let rest = try await Self.drain(store).flatMap(\.records).map(Array.init)
            #expect(rest == [records[6].bytes, records[7].bytes])
            try await store.settle(open, deadLetters: [])
            let status = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "q")
            #expect(status.pendingEvents == 0 && status.claimedEvents == 0)
        }
    }

    @Test func migrationIsVersionedAndPrintable() async throws {
        try await PostgresServer.withSchema { client, schema in
            #expect(try await PostgresTrackingStore.migrate(client: client, schema: schema).isEmpty)
            let sql = try PostgresSchema.sql(schema: "shop")
            #expect(sql.contains("CREATE TABLE shop.records_1 ") && sql.contains("INSERT INTO shop.migrations (version) VALUES (1)"))
            #expect(throws: TrackingError.self) { try PostgresSchema.sql(schema: "Bad; DROP") }
        }
    }

    @Test func aTrackerOverTheStoreDeliversEverything() async throws {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_PG_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("PostgresTrackingStoreTests: seed \(seed) (RECOKIT_PG_SEED=\(seed) replays it)")
        try await PostgresServer.withSchema { client, schema in
            let vendor = try FaultyVendor(seed: seed, faultsFirst: true)
            defer { vendor.stop() }
            var configuration = TrackerConfiguration()
            configuration.requestTimeout = .seconds(1)
            configuration.flushInterval = .milliseconds(20)
            configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100),
                                                    configurationDelay: .milliseconds(100))
            let store = try PostgresTrackingStore(client: client, queue: "segmentify", schema: schema, logger: PostgresServer.logger)
            let tracker = Tracker(destination: SegmentifyDestination(dataCenter: vendor.baseURL, apiKey: "k", origin: "shop.example"),
                                  store: store, configuration: configuration)
            let context = InteractionContext(userId: "u1", sessionId: "s1")
            let ids = try await whileRunning(tracker) {
                let ids = try (1...200).map { number in
                    try tracker.track(Interaction(kind: .click, instanceId: "rec_1", interactionId: "act_1", productId: "P-\(number)",
                                                  context: context)).description
                }
                try await tracker.flush()
                #expect(await tracker.waitUntilIdle(timeout: .seconds(120)), "seed \(seed)")
                return ids
            }
            #expect(vendor.unconfirmed(ids).isEmpty, "seed \(seed): \(vendor.answersInWords)")
        }
    }
}
}
