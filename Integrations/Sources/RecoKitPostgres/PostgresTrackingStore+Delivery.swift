import Foundation
import Logging
import NIOCore
import PostgresNIO
import RecoTracking

/// Claims, settles and give-backs over the datasets (see ``PostgresSchema`` for why they are exact).
extension PostgresTrackingStore {
    /// The batch id: the dataset in the high bits, the claim's row in the low 40.
    private static func batchID(dataset: Int, claim: Int64) -> UInt64 { UInt64(dataset) << 40 | UInt64(claim) }
    private static func parts(of batchID: UInt64) -> (dataset: Int, claim: Int64) {
        (Int(batchID >> 40), Int64(batchID & (1 << 40 - 1)))
    }

    public func claim(_ request: ClaimRequest) async throws(TrackingError) -> ClaimedBatch? {
        var dropped = 0
        while true {
            // A sender stopping (a relay's deadline) is not a store fault: it claims nothing more.
            if Task.isCancelled { return nil }
            do {
                let batch = try await client.withTransaction(logger: logger) { connection in
                    try await self.claim(request, on: connection)
                }
                state.withLock { $0.lastError = nil }
                return batch
            } catch {
                if Task.isCancelled { return nil }
                // A dataset dropped between listing it and reading it: list again.
                dropped += 1
                if PostgresDatasets.isUndefinedTable(error), dropped < 5 { continue }
                throw noteFailure("could not claim from", error)
            }
        }
    }

    private func claim(_ request: ClaimRequest, on connection: PostgresConnection) async throws -> ClaimedBatch? {
        let lease = self.lease ?? request.lease
        let leaseMilliseconds = max(1, Int64(lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000))
        // Claims of the queue take turns: the progress rows move one claim at a time.
        try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1))", binds: binds("recokit.\(schema).\(queue)")),
                                   logger: logger)
        let datasets = try await PostgresDatasets.live(schema: schema, on: connection, logger: logger)
        // First a batch whose lease ended: its process died (counted) or gave it back (not counted).
        for n in datasets {
            if let batch = try await reclaimExpired(n, leaseMilliseconds: leaseMilliseconds, on: connection) { return batch }
        }
        for n in datasets {
            if let batch = try await claimNew(n, request, leaseMilliseconds: leaseMilliseconds, on: connection) { return batch }
        }
        return nil
    }

    private func reclaimExpired(_ n: Int, leaseMilliseconds: Int64, on connection: PostgresConnection) async throws -> ClaimedBatch? {
        var expired: (id: Int64, xacts: [Int64], ids: [Int64], attempts: Int32, givenBack: Bool)?
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT id, xacts, ids, attempts, given_back FROM \(table("claims_\(n)"))
            WHERE queue = $1 AND NOT settled AND lease_until < now() ORDER BY id LIMIT 1
            """, binds: binds(queue)), logger: logger).decode((Int64, [Int64], [Int64], Int32, Bool).self) {
            expired = row
        }
        guard let expired else { return nil }
        let attempts = Int(expired.attempts) + (expired.givenBack ? 0 : 1)
        var b = binds(Int64(attempts))
        b.append(leaseMilliseconds)
        b.append(expired.id)
        try await connection.query(PostgresQuery(unsafeSQL: """
            UPDATE \(table("claims_\(n)")) SET attempts = $1, given_back = false, lease_until = now() + $2 * interval '1 millisecond'
            WHERE id = $3
            """, binds: b), logger: logger)
        var rb = binds(queue)
        rb.append(expired.xacts)
        rb.append(expired.ids)
        var records: [ArraySlice<UInt8>] = []
        var events = 0
        for try await (count, bytes) in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT r.events, r.bytes FROM unnest($2::bigint[], $3::bigint[]) WITH ORDINALITY AS k(xact, id, o)
            JOIN \(table("records_\(n)")) r ON r.queue = $1 AND r.xact = k.xact AND r.id = k.id ORDER BY k.o
            """, binds: rb), logger: logger).decode((Int32, ByteBuffer).self) {
            records.append(ArraySlice(bytes.readableBytesView))
            events += Int(count)
        }
        return ClaimedBatch(id: Self.batchID(dataset: n, claim: expired.id), records: records, events: events, attempts: attempts)
    }

    /// Reads dataset `n`'s window past its position, opening the next window (the snapshot now) when it
    /// is used up, until the batch is full or nothing more is committed; claims what it read if it is due.
    private func claimNew(_ n: Int, _ request: ClaimRequest, leaseMilliseconds: Int64, on connection: PostgresConnection) async throws -> ClaimedBatch? {
        let saved = try await PostgresDatasets.progress(n, schema: schema, queue: queue, on: connection, logger: logger)
        var progress = saved
        var opened = false
        if progress.cur == nil {
            progress.cur = try await PostgresDatasets.currentSnapshot(on: connection, logger: logger)
            progress.pos = (0, 0)
            opened = true
        }
        // One claim is a transaction of several round trips that claims take in turns: it takes up to
        // `claimRequests` requests' worth, which the tracker sends one request at a time.
        let maxEvents = request.maxEvents.multipliedReportingOverflow(by: claimRequests).overflow ? Int.max : request.maxEvents * claimRequests
        let maxBytes = request.maxBytes.multipliedReportingOverflow(by: claimRequests).overflow ? Int.max : request.maxBytes * claimRequests
        var rows: [(xact: Int64, id: Int64, events: Int, occurred: Int64, waited: Double, bytes: ByteBuffer)] = []
        var events = 0, bytes = 0
        var full = false
        reading: while true {
            let limit = max(1, maxEvents - events)
            var fetched = 0
            for try await row in try await connection.query(
                PostgresDatasets.windowQuery(n, schema: schema, queue: queue, progress: progress, limit: limit), logger: logger)
                .decode((Int64, Int64, Int32, Int64, Double, ByteBuffer).self) {
                fetched += 1
                guard !full else { continue }
                if !rows.isEmpty, events + Int(row.2) > maxEvents || bytes + row.5.readableBytes > maxBytes {
                    full = true
                    continue
                }
                rows.append((row.0, row.1, Int(row.2), row.3, row.4, row.5))
                events += Int(row.2)
                bytes += row.5.readableBytes
                progress.pos = (row.0, row.1)
                if events >= maxEvents { full = true }
            }
            // Fewer rows than asked for: the window is used up (every row holds at least one event).
            if full || fetched >= limit { break reading }
            if opened { break reading }
            progress.prev = progress.cur!
            progress.cur = try await PostgresDatasets.currentSnapshot(on: connection, logger: logger)
            progress.pos = (0, 0)
            opened = true
        }
        guard !rows.isEmpty else {
            // Everything committed as of the window's snapshot is claimed: it becomes the window's start,
            // which keeps the list of transactions in progress that later claims look up short.
            if let cur = progress.cur, cur != saved.prev {
                try await PostgresDatasets.save(DatasetProgress(prev: cur, cur: nil, pos: (0, 0)), n, schema: schema, queue: queue,
                                                on: connection, logger: logger)
            }
            return nil
        }
        let lingerSeconds = Double(request.linger.components.seconds) + Double(request.linger.components.attoseconds) / 1e18
        let waited = rows.map(\.waited).max() ?? 0
        guard full || request.force || waited >= lingerSeconds else { return nil }
        var cb = binds(queue)
        cb.append(rows.map(\.xact))
        cb.append(rows.map(\.id))
        cb.append(Int32(clamping: events))
        cb.append(Int64(bytes))
        cb.append(rows.map(\.occurred).min() ?? 0)
        cb.append(leaseMilliseconds)
        var id: Int64 = 0
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: """
            INSERT INTO \(table("claims_\(n)")) (queue, xacts, ids, events, bytes, first_occurred, lease_until)
            VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 millisecond') RETURNING id
            """, binds: cb), logger: logger).decode(Int64.self) { id = value }
        try await PostgresDatasets.save(progress, n, schema: schema, queue: queue, on: connection, logger: logger)
        return ClaimedBatch(id: Self.batchID(dataset: n, claim: id), records: rows.map { ArraySlice($0.bytes.readableBytesView) }, events: events)
    }

    public func settle(_ batch: ClaimedBatch, deadLetters: [DeadLetterEntry]) async throws(TrackingError) {
        let (n, claim) = Self.parts(of: batch.id)
        // Its events are delivered: a sender stopping now (a relay's deadline) still records that, or
        // they would go out again. Unstructured, the transaction is not cancelled with the caller.
        let work = Task {
            try await self.client.withTransaction(logger: self.logger) { connection in
                if !deadLetters.isEmpty {
                    var b = self.binds(self.queue)
                    b.append(deadLetters.map { ByteBuffer(bytes: $0.record) })
                    b.append(deadLetters.map(\.reason))
                    try await connection.query(PostgresQuery(unsafeSQL: """
                        INSERT INTO \(self.table("dead_letters")) (queue, record, reason) SELECT $1, * FROM unnest($2::bytea[], $3::text[])
                        """, binds: b), logger: self.logger)
                }
                try await connection.query(PostgresQuery(unsafeSQL: "UPDATE \(self.table("claims_\(n)")) SET settled = true WHERE id = $1",
                                                         binds: self.binds(claim)), logger: self.logger)
            }
        }
        do {
            try await work.value
            state.withLock { $0.lastError = nil }
        } catch where PostgresDatasets.isUndefinedTable(error) {
            // The dataset was dropped: only once every claim in it was settled, this one by the process that
            // claimed it again after its lease ended.
        } catch {
            throw noteFailure("could not settle a batch of", error)
        }
    }

    public func giveBack(_ batch: ClaimedBatch) async {
        let (n, claim) = Self.parts(of: batch.id)
        // Its lease ends now, not counted as an attempt; if this fails the lease ends on its own, counted.
        let work = Task {
            _ = try? await self.client.query(PostgresQuery(unsafeSQL: """
                UPDATE \(self.table("claims_\(n)")) SET lease_until = '-infinity', given_back = true WHERE id = $1 AND NOT settled
                """, binds: self.binds(claim)), logger: self.logger)
        }
        await work.value
        bump()
    }

    /// Seals the dataset appenders write if it is due (``rotateRecords``, ``rotateAge``) and drops every
    /// sealed dataset wholly delivered; returns the datasets dropped. ``run()`` does this every
    /// `statusInterval`; call it to do it now.
    @discardableResult
    public func maintain() async throws -> [Int] {
        try await PostgresDatasets.maintain(client: client, schema: schema, rotateRecords: rotateRecords, rotateAge: rotateAge, logger: logger)
    }

    // MARK: What it holds

    /// Reads pending, claimed, dead letters and the oldest pending event from the tables.
    static func refreshStatus(client: PostgresClient, schema: String, queue: String, state: Guarded<State>, logger: Logger) async {
        do {
            let before = state.withLock { ($0.committedEvents, $0.committedBytes) }
            var status = try await readStatus(client: client, schema: schema, queue: queue, logger: logger)
            state.withLock {
                // Commits that ended during the read may be missing from it: counted, at worst twice until the next read.
                status.pendingEvents += $0.committedEvents - before.0
                status.pendingBytes += $0.committedBytes - before.1
                $0.status = status
            }
        } catch {
            state.withLock { $0.status.error = "PostgreSQL: could not read the status of queue \(queue): \(describe(error))" }
        }
    }

    /// The status of `queue` now: per dataset, the records no claim took (index lookups and ranges from
    /// the queue's progress: the backlog, not what was delivered) and the unsettled claims.
    public static func readStatus(client: PostgresClient, schema: String, queue: String,
                                  logger: Logger = Logger(label: "RecoKit.PostgresTrackingStore")) async throws -> TrackingStoreStatus {
        let s = try PostgresSchema.checked(schema)
        var attempt = 0
        while true {
            do {
                return try await client.withTransaction(logger: logger) { connection in
                    try await readStatus(schema: s, queue: queue, on: connection, logger: logger)
                }
            } catch where PostgresDatasets.isUndefinedTable(error) && attempt < 4 {
                attempt += 1  // a dataset dropped while it was read: read again
            }
        }
    }

    private static func readStatus(schema s: String, queue: String, on connection: PostgresConnection, logger: Logger) async throws -> TrackingStoreStatus {
        var status = TrackingStoreStatus()
        var oldest: Int64?
        var queueBinds = PostgresBindings()
        queueBinds.append(queue)
        for n in try await PostgresDatasets.live(schema: s, on: connection, logger: logger) {
            let progress = try await PostgresDatasets.progress(n, schema: s, queue: queue, on: connection, logger: logger)
            let unclaimed = PostgresDatasets.unclaimedQuery(n, schema: s, queue: queue, progress: progress, columns: "events, length(bytes) AS size, occurred")
            for try await (events, bytes, first) in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT coalesce(sum(events), 0)::bigint, coalesce(sum(size), 0)::bigint, min(occurred) FROM (\(unclaimed.sql)) u
                """, binds: unclaimed.binds), logger: logger).decode((Int64, Int64, Int64?).self) {
                status.pendingEvents += Int(events)
                status.pendingBytes += Int(bytes)
                if let first { oldest = min(oldest ?? first, first) }
            }
            for try await (events, bytes, first, held) in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT coalesce(sum(events), 0)::bigint, coalesce(sum(bytes), 0)::bigint, min(first_occurred),
                       coalesce(sum(events) FILTER (WHERE lease_until > now()), 0)::bigint
                FROM \(s).claims_\(n) WHERE queue = $1 AND NOT settled
                """, binds: queueBinds), logger: logger).decode((Int64, Int64, Int64?, Int64).self) {
                status.pendingEvents += Int(events)
                status.pendingBytes += Int(bytes)
                status.claimedEvents += Int(held)
                if let first { oldest = min(oldest ?? first, first) }
            }
        }
        status.oldestPending = oldest.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        for try await dead in try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*)::bigint FROM \(s).dead_letters WHERE queue = $1",
                                                                       binds: queueBinds), logger: logger).decode(Int64.self) {
            status.deadLetters = Int(dead)
        }
        return status
    }

    /// The queues that appended or have dead letters in `schema`.
    public static func queues(client: PostgresClient, schema: String, logger: Logger = Logger(label: "RecoKit.PostgresTrackingStore")) async throws -> [String] {
        let s = try PostgresSchema.checked(schema)
        var names: [String] = []
        for try await name in try await client.query(PostgresQuery(unsafeSQL: """
            SELECT queue FROM \(s).queues UNION SELECT DISTINCT queue FROM \(s).dead_letters ORDER BY 1
            """), logger: logger).decode(String.self) { names.append(name) }
        return names
    }
}
