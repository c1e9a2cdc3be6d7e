import Foundation
import Logging
import NIOCore
import PostgresNIO
import RecoTracking

/// A ``RecoTracking/TrackingStore`` in PostgreSQL that a fleet shares: any process appends, any process
/// delivers, and a batch claimed by a process that died goes out again once its lease ends.
///
/// ```swift
/// let client = PostgresClient(configuration: configuration)
/// Task { await client.run() }
/// try await PostgresTrackingStore.migrate(client: client)
/// let store = PostgresTrackingStore(client: client, queue: "segmentify")
/// let tracker = Tracker(destination: segmentify, store: store)
/// ```
///
/// One store serves one queue (one destination); several queues share the tables. ``append(_:)`` puts a
/// record in memory; ``commit()`` writes everything appended before it in one transaction, shared by
/// concurrent callers, and notifies the queue's channel so that waiting senders of every process wake. A
/// record's first event id is unique in its queue: a retried append does not duplicate it.
/// ``append(_:on:logger:)`` writes a record inside the caller's own transaction instead.
public final class PostgresTrackingStore: TrackingStore, @unchecked Sendable {
    /// The queue this store serves.
    public let queue: String
    /// The schema of its tables.
    public let schema: String
    public let commitInterval: Duration?
    /// The most bytes of records the intake buffer holds before appends are refused.
    public let maxBufferedBytes: Int
    /// How long a claim of this store holds, whatever the claim asks (nil: as ``RecoTracking/ClaimRequest/lease`` says).
    public let lease: Duration?

    private let client: PostgresClient
    private let logger: Logger
    private let retainsFailedCommits: Bool
    private let state = Guarded(State())
    private let commitTurn = AsyncTurn()
    private var background: [Task<Void, Never>] = []

    private struct State {
        var buffer: [StoredRecord] = []
        var bufferedBytes = 0
        /// Serial of the last record appended, and of the last one a commit finished with (written or refused).
        var appended: UInt64 = 0
        var finished: UInt64 = 0
        /// Commits that failed: the serials they carried and why, newest last (a few kept).
        var failures: [(range: ClosedRange<UInt64>, error: TrackingError)] = []
        var closed = false
        var mark: UInt64 = 0
        var status = TrackingStoreStatus()
        var lastError: String?
    }

    /// A store of `queue` in `schema`'s tables (run ``migrate(client:schema:)`` first).
    /// - Parameters:
    ///   - client: a running pool.
    ///   - commitInterval: how often the running tracker commits (20 ms by default); nil for a relay, whose
    ///     commits are its own: then the records a failed commit carried are refused, never written later.
    ///   - maxBufferedBytes: the intake buffer's limit (64 MiB by default).
    ///   - lease: how long a claim holds before another process may deliver the batch, in place of the
    ///     tracker's ``RecoTracking/TrackerConfiguration/lease`` (nil: the tracker's).
    ///   - statusInterval: how often the status is read from the tables (1 s by default).
    public init(client: PostgresClient, queue: String, schema: String = "recokit",
                commitInterval: Duration? = .milliseconds(20), maxBufferedBytes: Int = 64 << 20, lease: Duration? = nil,
                statusInterval: Duration = .seconds(1), logger: Logger = Logger(label: "RecoKit.PostgresTrackingStore")) throws(TrackingError) {
        guard !queue.isEmpty, queue.utf8.count <= 48 else { throw .configuration("queue name \"\(queue)\": give 1 to 48 bytes") }
        self.client = client
        self.queue = queue
        self.schema = try PostgresSchema.checked(schema)
        self.commitInterval = commitInterval
        self.retainsFailedCommits = commitInterval != nil
        self.maxBufferedBytes = max(1 << 16, maxBufferedBytes)
        self.lease = lease
        self.logger = logger
        // The tasks hold what they use, not the store: dropping the store cancels them.
        let shared = state, schemaName = self.schema, channelName = channel
        background = [
            Task { await Self.listen(client: client, channel: channelName, state: shared) },
            Task {
                while !Task.isCancelled {
                    await Self.refreshStatus(client: client, schema: schemaName, queue: queue, state: shared, logger: logger)
                    try? await Task.sleep(for: statusInterval)
                }
            },
        ]
    }

    deinit { for task in background { task.cancel() } }

    /// Creates or upgrades the store's tables in `schema`; returns the migrations applied now.
    @discardableResult
    public static func migrate(client: PostgresClient, schema: String = "recokit",
                               logger: Logger = Logger(label: "RecoKit.PostgresTrackingStore")) async throws -> [Int] {
        try await PostgresSchema.migrate(client: client, schema: schema, logger: logger)
    }

    public var location: String { "PostgreSQL \(schema), queue \(queue)" }

    /// The LISTEN/NOTIFY channel of the queue.
    var channel: String { "recokit_\(schema)_\(queue)".lowercased() }

    private func table(_ name: String) -> String { "\(schema).\(name)" }

    // MARK: Intake

    public func append(_ record: StoredRecord) throws(TrackingError) {
        let outcome = state.withLock { state -> TrackingError? in
            if state.closed { return .shutDown }
            if state.bufferedBytes + record.bytes.count > maxBufferedBytes, !state.buffer.isEmpty { return .queueFull }
            state.buffer.append(record)
            state.bufferedBytes += record.bytes.count
            state.appended += 1
            return nil
        }
        if let outcome { throw outcome }
    }

    /// Writes `record` (from ``RecoTracking/Tracker/record(_:)``) inside the caller's transaction on
    /// `connection`: it commits, and becomes deliverable, with the caller's own rows, or not at all.
    public func append(_ record: StoredRecord, on connection: PostgresConnection, logger: Logger? = nil) async throws {
        try await insert([record], copy: [0], on: connection, logger: logger ?? self.logger)
    }

    public func commit() async throws(TrackingError) {
        let target = state.withLock { $0.appended }
        await commitTurn.take()
        defer { commitTurn.give() }
        // An earlier commit may have written (or refused) what this caller appended.
        let (records, range) = state.withLock { state -> ([StoredRecord], ClosedRange<UInt64>?) in
            guard state.finished < target else { return ([], nil) }
            let records = state.buffer
            let range = (state.finished + 1)...state.appended
            state.buffer = []
            state.bufferedBytes = 0
            return (records, range)
        }
        guard let range else {
            if let failure = state.withLock({ state in state.failures.last { $0.range.contains(target) } }) { throw failure.error }
            return
        }
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await self.insert(records, copy: Array(repeating: 0, count: records.count), on: connection, logger: self.logger)
            }
            state.withLock {
                $0.finished = range.upperBound
                $0.lastError = nil
            }
            bump()
        } catch {
            let failure = TrackingError.journal("PostgreSQL: could not write \(records.count) records to \(location): \(Self.describe(error))")
            state.withLock { state in
                state.lastError = failure.message
                if retainsFailedCommits {
                    // The running tracker's records wait for its next commit.
                    state.buffer.insert(contentsOf: records, at: 0)
                    state.bufferedBytes += records.reduce(0) { $0 + $1.bytes.count }
                } else {
                    state.finished = range.upperBound
                    state.failures.append((range, failure))
                    if state.failures.count > 16 { state.failures.removeFirst() }
                }
            }
            throw failure
        }
    }

    /// Inserts records (ignoring those already there) and notifies the queue's channel, on `connection`.
    private func insert(_ records: [StoredRecord], copy: [Int64], on connection: PostgresConnection, logger: Logger) async throws {
        guard !records.isEmpty else { return }
        var runs: [Int64] = [], sequences: [Int64] = [], events: [Int32] = [], occurred: [Int64] = [], bytes: [ByteBuffer] = []
        runs.reserveCapacity(records.count)
        for record in records {
            runs.append(Int64(bitPattern: record.firstEvent.run))
            sequences.append(Int64(bitPattern: record.firstEvent.sequence))
            events.append(Int32(clamping: record.events))
            occurred.append(StoredRecord.occurred(in: record.bytes).map { Int64($0.timeIntervalSince1970 * 1000) } ?? 0)
            bytes.append(ByteBuffer(bytes: record.bytes))
        }
        var binds = PostgresBindings(capacity: 7)
        binds.append(queue)
        binds.append(runs)
        binds.append(sequences)
        binds.append(copy)
        binds.append(events)
        binds.append(occurred)
        binds.append(bytes)
        try await connection.query(PostgresQuery(unsafeSQL: """
            INSERT INTO \(table("records")) (queue, run, seq, copy, events, occurred, bytes)
            SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::int[], $6::bigint[], $7::bytea[])
            ON CONFLICT DO NOTHING
            """, binds: binds), logger: logger)
        try await connection.query("SELECT pg_notify(\(channel), '')", logger: logger)
    }

    // MARK: Delivery

    public func claim(_ request: ClaimRequest) async throws(TrackingError) -> ClaimedBatch? {
        do {
            let batch = try await client.withTransaction(logger: logger) { connection in
                try await self.claim(request, on: connection)
            }
            state.withLock { $0.lastError = nil }
            return batch
        } catch {
            throw noteFailure("could not claim from", error)
        }
    }

    private func claim(_ request: ClaimRequest, on connection: PostgresConnection) async throws -> ClaimedBatch? {
        let lease = self.lease ?? request.lease
        let leaseMilliseconds = max(1, Int64(lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000))
        // The queue's row serialises claims of the queue: cursor moves and take-overs happen one at a time.
        var cursor: (xact: Int64, id: Int64)?
        for try await row in try await connection.query(PostgresQuery(unsafeSQL:
            "SELECT cursor_xact, cursor_id FROM \(table("queues")) WHERE queue = $1 FOR UPDATE", binds: binds(queue)), logger: logger)
            .decode((Int64, Int64).self) { cursor = (row.0, row.1) }
        if cursor == nil {
            try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table("queues")) (queue) VALUES ($1) ON CONFLICT DO NOTHING",
                                                     binds: binds(queue)), logger: logger)
            for try await row in try await connection.query(PostgresQuery(unsafeSQL:
                "SELECT cursor_xact, cursor_id FROM \(table("queues")) WHERE queue = $1 FOR UPDATE", binds: binds(queue)), logger: logger)
                .decode((Int64, Int64).self) { cursor = (row.0, row.1) }
        }
        guard let cursor else { return nil }

        // First a batch whose lease ended: its process died (counted) or gave it back (not counted).
        var expired: (id: Int64, fx: Int64, fi: Int64, lx: Int64, li: Int64, attempts: Int32, givenBack: Bool)?
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT id, first_xact, first_id, last_xact, last_id, attempts, given_back FROM \(table("claims"))
            WHERE queue = $1 AND NOT settled AND lease_until < now() ORDER BY id LIMIT 1
            """, binds: binds(queue)), logger: logger).decode((Int64, Int64, Int64, Int64, Int64, Int32, Bool).self) {
            expired = (row.0, row.1, row.2, row.3, row.4, row.5, row.6)
        }
        if let expired {
            let attempts = Int(expired.attempts) + (expired.givenBack ? 0 : 1)
            var b = binds(Int64(attempts))
            b.append(leaseMilliseconds)
            b.append(expired.id)
            try await connection.query(PostgresQuery(unsafeSQL: """
                UPDATE \(table("claims")) SET attempts = $1, given_back = false, lease_until = now() + $2 * interval '1 millisecond'
                WHERE id = $3
                """, binds: b), logger: logger)
            var rb = binds(queue)
            rb.append(expired.fx); rb.append(expired.fi); rb.append(expired.lx); rb.append(expired.li)
            var records: [ArraySlice<UInt8>] = []
            var events = 0
            for try await (count, bytes) in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT events, bytes FROM \(table("records"))
                WHERE queue = $1 AND (xact, id) >= ($2, $3) AND (xact, id) <= ($4, $5) ORDER BY xact, id
                """, binds: rb), logger: logger).decode((Int32, ByteBuffer).self) {
                records.append(ArraySlice(bytes.readableBytesView))
                events += Int(count)
            }
            return ClaimedBatch(id: UInt64(expired.id), records: records, events: events, attempts: attempts)
        }

        // Then the records past the cursor, of transactions that all ended: none can commit behind them later.
        var b = binds(queue)
        b.append(cursor.xact); b.append(cursor.id); b.append(Int64(request.maxEvents))
        var rows: [(xact: Int64, id: Int64, events: Int, occurred: Int64, waited: Double, bytes: ByteBuffer)] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT xact, id, events, occurred, extract(epoch FROM clock_timestamp() - appended)::float8, bytes FROM \(table("records"))
            WHERE queue = $1 AND (xact, id) > ($2, $3) AND xact < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
            ORDER BY xact, id LIMIT $4
            """, binds: b), logger: logger).decode((Int64, Int64, Int32, Int64, Double, ByteBuffer).self) {
            rows.append((row.0, row.1, Int(row.2), row.3, row.4, row.5))
        }
        guard let first = rows.first else { return nil }
        var taken = 0, events = 0, bytes = 0
        for row in rows {
            if taken > 0, events + row.events > request.maxEvents || bytes + row.bytes.readableBytes > request.maxBytes { break }
            taken += 1
            events += row.events
            bytes += row.bytes.readableBytes
        }
        let full = taken < rows.count || events >= request.maxEvents
        let lingerSeconds = Double(request.linger.components.seconds) + Double(request.linger.components.attoseconds) / 1e18
        guard full || request.force || first.waited >= lingerSeconds else { return nil }
        let last = rows[taken - 1]
        var cb = binds(queue)
        cb.append(first.xact); cb.append(first.id); cb.append(last.xact); cb.append(last.id)
        cb.append(Int32(clamping: events)); cb.append(Int64(bytes)); cb.append(first.occurred); cb.append(leaseMilliseconds)
        var id: Int64 = 0
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: """
            INSERT INTO \(table("claims")) (queue, first_xact, first_id, last_xact, last_id, events, bytes, first_occurred, lease_until)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + $9 * interval '1 millisecond') RETURNING id
            """, binds: cb), logger: logger).decode(Int64.self) { id = value }
        var ub = binds(last.xact)
        ub.append(last.id); ub.append(queue)
        try await connection.query(PostgresQuery(unsafeSQL: "UPDATE \(table("queues")) SET cursor_xact = $1, cursor_id = $2 WHERE queue = $3",
                                                 binds: ub), logger: logger)
        return ClaimedBatch(id: UInt64(id), records: rows[..<taken].map { ArraySlice($0.bytes.readableBytesView) }, events: events)
    }

    public func settle(_ batch: ClaimedBatch, deadLetters: [DeadLetterEntry]) async throws(TrackingError) {
        do {
            try await client.withTransaction(logger: logger) { connection in
                if !deadLetters.isEmpty {
                    var b = self.binds(self.queue)
                    b.append(deadLetters.map { ByteBuffer(bytes: $0.record) })
                    b.append(deadLetters.map(\.reason))
                    try await connection.query(PostgresQuery(unsafeSQL: """
                        INSERT INTO \(self.table("dead_letters")) (queue, record, reason) SELECT $1, * FROM unnest($2::bytea[], $3::text[])
                        """, binds: b), logger: self.logger)
                }
                try await connection.query(PostgresQuery(unsafeSQL: "UPDATE \(self.table("claims")) SET settled = true WHERE id = $1",
                                                         binds: self.binds(Int64(batch.id))), logger: self.logger)
            }
            state.withLock { $0.lastError = nil }
        } catch {
            throw noteFailure("could not settle a batch of", error)
        }
    }

    public func giveBack(_ batch: ClaimedBatch) async {
        // Its lease ends now, not counted as an attempt; if this fails the lease ends on its own, counted.
        _ = try? await client.query(PostgresQuery(unsafeSQL: """
            UPDATE \(table("claims")) SET lease_until = '-infinity', given_back = true WHERE id = $1 AND NOT settled
            """, binds: binds(Int64(batch.id))), logger: logger)
        bump()
    }

    // MARK: Waking

    public var recordsMark: UInt64 { state.withLock { $0.mark } }

    public func waitForRecords(after mark: UInt64, timeout: Duration) async {
        // Notifications ring the mark; the timeout (the tracker's idle poll) covers a connection that
        // cannot hear them (PgBouncer, a lost connection).
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while recordsMark == mark, clock.now < end, !Task.isCancelled {
            try? await Task.sleep(for: min(.milliseconds(5), end - clock.now))
        }
    }

    public func wake() { bump() }

    private func bump() { state.withLock { $0.mark &+= 1 } }

    /// Listens on the queue's channel on a connection of its own, again after a lost one.
    private static func listen(client: PostgresClient, channel: String, state: Guarded<State>) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    for try await _ in try await connection.listen(channel) {
                        state.withLock { $0.mark &+= 1 }
                    }
                }
            } catch {}
            // What was notified while no one listened may be claimable now.
            state.withLock { $0.mark &+= 1 }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    // MARK: What it holds

    public var status: TrackingStoreStatus {
        state.withLock { state in
            var status = state.status
            status.error = state.lastError ?? status.error
            return status
        }
    }

    /// Reads pending, claimed, dead letters and the oldest pending event from the tables.
    private static func refreshStatus(client: PostgresClient, schema: String, queue: String, state: Guarded<State>, logger: Logger) async {
        do {
            let status = try await readStatus(client: client, schema: schema, queue: queue, logger: logger)
            state.withLock { $0.status = status }
        } catch {
            state.withLock { $0.status.error = "PostgreSQL: could not read the status of queue \(queue): \(describe(error))" }
        }
    }

    /// The status of `queue` now: records past the cursor (an index range scan of the backlog) and unsettled claims.
    public static func readStatus(client: PostgresClient, schema: String, queue: String,
                                  logger: Logger = Logger(label: "RecoKit.PostgresTrackingStore")) async throws -> TrackingStoreStatus {
        let s = try PostgresSchema.checked(schema)
        var b = PostgresBindings()
        b.append(queue)
        var status = TrackingStoreStatus()
        let rows = try await client.query(PostgresQuery(unsafeSQL: """
            WITH q AS (SELECT coalesce((SELECT cursor_xact FROM \(s).queues WHERE queue = $1), 0) AS x,
                              coalesce((SELECT cursor_id FROM \(s).queues WHERE queue = $1), 0) AS i),
                 r AS (SELECT coalesce(sum(events), 0)::bigint AS e, coalesce(sum(length(bytes)), 0)::bigint AS b, min(occurred) AS o
                       FROM \(s).records, q WHERE queue = $1 AND (xact, id) > (q.x, q.i)),
                 c AS (SELECT coalesce(sum(events), 0)::bigint AS e, coalesce(sum(bytes), 0)::bigint AS b, min(first_occurred) AS o,
                              coalesce(sum(events) FILTER (WHERE lease_until > now()), 0)::bigint AS held
                       FROM \(s).claims WHERE queue = $1 AND NOT settled),
                 d AS (SELECT count(*)::bigint AS n FROM \(s).dead_letters WHERE queue = $1)
            SELECT r.e + c.e, r.b + c.b, c.held, least(r.o, c.o), d.n FROM r, c, d
            """, binds: b), logger: logger)
        for try await (pending, bytes, held, oldest, dead) in rows.decode((Int64, Int64, Int64, Int64?, Int64).self) {
            status.pendingEvents = Int(pending)
            status.pendingBytes = Int(bytes)
            status.claimedEvents = Int(held)
            status.oldestPending = oldest.map { Date(timeIntervalSince1970: Double($0) / 1000) }
            status.deadLetters = Int(dead)
        }
        return status
    }

    /// The queues that have records or dead letters in `schema`.
    public static func queues(client: PostgresClient, schema: String, logger: Logger = Logger(label: "RecoKit.PostgresTrackingStore")) async throws -> [String] {
        let s = try PostgresSchema.checked(schema)
        var names: [String] = []
        for try await name in try await client.query(PostgresQuery(unsafeSQL: """
            SELECT queue FROM \(s).queues UNION SELECT DISTINCT queue FROM \(s).dead_letters
            UNION SELECT queue FROM (SELECT DISTINCT queue FROM \(s).records) r ORDER BY 1
            """), logger: logger).decode(String.self) { names.append(name) }
        return names
    }

    public func deadLetters(each body: (DeadLetter) -> Void) async throws(TrackingError) -> Int {
        do {
            var letters: [DeadLetter] = []
            for try await (bytes, reason, at) in try await client.query(PostgresQuery(unsafeSQL: """
                SELECT record, reason, extract(epoch FROM at)::float8 FROM \(table("dead_letters")) WHERE queue = $1 ORDER BY id
                """, binds: binds(queue)), logger: logger).decode((ByteBuffer, String, Double).self) {
                let event = try EventRecord(bytes: ArraySlice(bytes.readableBytesView)).event()
                letters.append(DeadLetter(event: event, reason: reason, at: Date(timeIntervalSince1970: at)))
            }
            letters.forEach(body)
            return letters.count
        } catch {
            throw noteFailure("could not read the dead letters of", error)
        }
    }

    public func requeueDeadLetters() async throws(TrackingError) -> Int {
        do {
            let count = try await client.withTransaction(logger: logger) { connection -> Int in
                var letters: [(id: Int64, record: [UInt8])] = []
                for try await (id, bytes) in try await connection.query(PostgresQuery(unsafeSQL: """
                    DELETE FROM \(self.table("dead_letters")) WHERE queue = $1 RETURNING id, record
                    """, binds: self.binds(self.queue)), logger: self.logger).decode((Int64, ByteBuffer).self) {
                    letters.append((id, Array(bytes.readableBytesView)))
                }
                var records: [StoredRecord] = []
                for letter in letters {
                    guard let first = StoredRecord.firstEvent(in: letter.record) else { continue }
                    records.append(StoredRecord(bytes: letter.record, firstEvent: first, events: 1))
                }
                // A requeued event keeps its id; its copy number (the dead letter's id) keeps it apart from the original.
                try await self.insert(records, copy: letters.filter { $0.record.count >= 25 }.map(\.id), on: connection, logger: self.logger)
                return records.count
            }
            bump()
            return count
        } catch {
            throw noteFailure("could not requeue the dead letters of", error)
        }
    }

    public func close() async throws(TrackingError) {
        let closed = state.withLock { state -> Bool in
            defer { state.closed = true }
            return state.closed
        }
        guard !closed else { return }
        defer { for task in background { task.cancel() } }
        if commitInterval != nil { try await commit() }
    }

    // MARK: Helpers

    private func binds(_ value: some PostgresNonThrowingEncodable & PostgresDynamicTypeEncodable) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }

    private func noteFailure(_ doing: String, _ error: any Error) -> TrackingError {
        if let error = error as? TrackingError { return error }
        let failure = TrackingError.journal("PostgreSQL: \(doing) \(location): \(Self.describe(error))")
        state.withLock { $0.lastError = failure.message }
        return failure
    }

    /// An error in words: PostgreSQL's message where the server sent one.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return "\(error.code)"
        }
        return "\(error)"
    }
}

/// A value behind a lock.
final class Guarded<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// One holder at a time, in arrival order: commits take turns so that each writes what the one before left.
final class AsyncTurn: Sendable {
    private let state = Guarded<(held: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if !state.held { state.held = true; return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty { state.held = false; return nil }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
