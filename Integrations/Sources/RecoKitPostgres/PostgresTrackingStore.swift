import Foundation
import Logging
import NIOCore
import PostgresNIO
import RecoTracking

/// A ``RecoTracking/TrackingStore`` in PostgreSQL that a fleet shares: any process appends, any process
/// delivers, and a batch claimed by a process that died goes out again once its lease ends.
///
/// ```swift
/// try await PostgresTrackingStore.migrate(client: client)       // a running PostgresClient
/// let store = try PostgresTrackingStore(client: client, queue: "segmentify")
/// let tracker = Tracker(destination: segmentify, store: store)  // its run() runs the store's
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

    /// The most requests' worth of events (the destination's limits) one claim takes.
    public let claimRequests: Int
    /// A dataset is sealed, and appends go to a new one, once it holds this many records...
    public let rotateRecords: Int
    /// ...or is this old (and holds any). See ``PostgresSchema``.
    public let rotateAge: Duration

    let client: PostgresClient
    let logger: Logger
    private let retainsFailedCommits: Bool
    let state = Guarded(State())
    private let commitTurn = AsyncTurn()
    private let statusInterval: Duration

    struct State {
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
        /// Events and bytes this process committed, ever: added to a status read before they were, so that
        /// what it just wrote never looks delivered until the next read.
        var committedEvents = 0
        var committedBytes = 0
        var lastError: String?
        /// Whether this store listed its queue in `queues`.
        var registered = false
    }

    /// A store of `queue` in `schema`'s tables (run ``migrate(client:schema:)`` first).
    /// - Parameters:
    ///   - client: a running pool.
    ///   - commitInterval: how often the running tracker commits (20 ms by default); nil for a relay, whose
    ///     commits are its own: then the records a failed commit carried are refused, never written later.
    ///   - maxBufferedBytes: the intake buffer's limit (64 MiB by default).
    ///   - lease: how long a claim holds before another process may deliver the batch, in place of the
    ///     tracker's ``RecoTracking/TrackerConfiguration/lease`` (nil: the tracker's).
    ///   - claimRequests: how many requests' worth of events (``RecoTracking/ClaimRequest/maxEvents`` and
    ///     ``RecoTracking/ClaimRequest/maxBytes``) one claim takes, 10 by default. Claims of a queue take
    ///     turns, each a transaction of a few round trips, so bigger claims deliver more per turn; the
    ///     tracker sends a claim's events a request at a time. A process that dies mid-claim leaves the
    ///     whole claim to be delivered again once its lease ends (the vendor may see part of it twice).
    ///   - rotateRecords, rotateAge: when the dataset appenders write is sealed and a new one opened
    ///     (200,000 records or 10 minutes by default): a dataset's tables are dropped once all of it is
    ///     delivered, so these bound the store's size past the backlog. Give every process the same.
    ///   - statusInterval: how often ``run()`` reads the status from the tables, and rotates and drops
    ///     datasets (``maintain()``) (1 s by default).
    public init(client: PostgresClient, queue: String, schema: String = "recokit",
                commitInterval: Duration? = .milliseconds(20), maxBufferedBytes: Int = 64 << 20, lease: Duration? = nil,
                claimRequests: Int = 10, rotateRecords: Int = 200_000, rotateAge: Duration = .seconds(600),
                statusInterval: Duration = .seconds(1), logger: Logger = Logger(label: "RecoKit.PostgresTrackingStore")) throws(TrackingError) {
        guard !queue.isEmpty, queue.utf8.count <= 48 else { throw .configuration("queue name \"\(queue)\": give 1 to 48 bytes") }
        self.client = client
        self.queue = queue
        self.schema = try PostgresSchema.checked(schema)
        self.commitInterval = commitInterval
        self.retainsFailedCommits = commitInterval != nil
        self.maxBufferedBytes = max(1 << 16, maxBufferedBytes)
        self.lease = lease
        self.claimRequests = max(1, claimRequests)
        self.rotateRecords = max(1, rotateRecords)
        self.rotateAge = rotateAge
        self.logger = logger
        self.statusInterval = statusInterval
    }

    /// The store's own work, for as long as the tracker over it runs (its ``RecoTracking/Tracker/run()``
    /// runs this and cancels it once drained): listens on the queue's channel, so that senders wake when
    /// any process commits, and every `statusInterval` reads the status and rotates and drops datasets
    /// (``maintain()``). Without it the store still appends and delivers: senders then look every
    /// ``RecoTracking/ClaimRequest/linger`` or so, and the tables grow until ``maintain()`` runs.
    public func run() async {
        let client = self.client, channel = self.channel
        await withDiscardingTaskGroup { group in
            group.addTask { [state] in await Self.listen(client: client, channel: channel, state: state) }
            group.addTask { [self] in
                while !Task.isCancelled {
                    await Self.refreshStatus(client: client, schema: schema, queue: queue, state: state, logger: logger)
                    _ = try? await maintain()
                    try? await Task.sleep(for: statusInterval)
                }
            }
        }
    }

    /// Creates or upgrades the store's tables in `schema`; returns the migrations applied now.
    @discardableResult
    public static func migrate(client: PostgresClient, schema: String = "recokit",
                               logger: Logger = Logger(label: "RecoKit.PostgresTrackingStore")) async throws -> [Int] {
        try await PostgresSchema.migrate(client: client, schema: schema, logger: logger)
    }

    public var location: String { "PostgreSQL \(schema), queue \(queue)" }

    /// The LISTEN/NOTIFY channel of the queue.
    var channel: String { "recokit_\(schema)_\(queue)".lowercased() }

    func table(_ name: String) -> String { "\(schema).\(name)" }

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
        try await register()
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
            try await register()
            try await client.withTransaction(logger: logger) { connection in
                try await self.insert(records, copy: Array(repeating: 0, count: records.count), on: connection, logger: self.logger)
            }
            let events = records.reduce(0) { $0 + $1.events }, bytes = records.reduce(0) { $0 + $1.bytes.count }
            let oldest = records.compactMap { StoredRecord.occurred(in: $0.bytes) }.min()
            state.withLock {
                $0.finished = range.upperBound
                $0.lastError = nil
                $0.committedEvents += events
                $0.committedBytes += bytes
                $0.status.pendingEvents += events
                $0.status.pendingBytes += bytes
                if let oldest, $0.status.oldestPending.map({ oldest < $0 }) ?? true { $0.status.oldestPending = oldest }
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
        let dataset = try await PostgresDatasets.lockCurrent(schema: schema, on: connection, logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: """
            INSERT INTO \(table("records_\(dataset)")) (queue, run, seq, copy, events, occurred, bytes)
            SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::int[], $6::bigint[], $7::bytea[])
            ON CONFLICT DO NOTHING
            """, binds: binds), logger: logger)
        try await connection.query("SELECT pg_notify(\(channel), '')", logger: logger)
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

    func bump() { state.withLock { $0.mark &+= 1 } }

    /// Listens on the queue's channel on a connection of its own, again after a lost one.
    static func listen(client: PostgresClient, channel: String, state: Guarded<State>) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        for try await _ in notifications { state.withLock { $0.mark &+= 1 } }
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
            try await register()
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
        if commitInterval != nil { try await commit() }
    }

    // MARK: Helpers

    func binds(_ value: some PostgresNonThrowingEncodable & PostgresDynamicTypeEncodable) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }

    func noteFailure(_ doing: String, _ error: any Error) -> TrackingError {
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
        if let error = error as? PostgresTransactionError, let cause = error.cause { return describe(cause) }
        return "\(error)"
    }

    /// PostgreSQL's SQLSTATE of `error` (inside a failed transaction's), if the server sent one.
    static func sqlState(of error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        if let error = error as? PostgresTransactionError, let cause = error.cause { return sqlState(of: cause) }
        return nil
    }

    /// Lists the queue in `queues` (what a dataset must have delivered before it is dropped), once, in a
    /// statement of its own: inside an append's transaction, a first append held open (a shop's) would
    /// make every other appender of the queue wait for it.
    private func register() async throws {
        guard !state.withLock({ $0.registered }) else { return }
        try await client.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table("queues")) (queue) VALUES ($1) ON CONFLICT DO NOTHING",
                                             binds: binds(queue)), logger: logger)
        state.withLock { $0.registered = true }
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

extension PostgresTransactionError {
    /// What failed: the transaction's body, its BEGIN or its COMMIT.
    var cause: (any Error)? { closureError ?? beginError ?? commitError }
}
