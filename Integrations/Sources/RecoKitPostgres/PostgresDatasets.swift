import Foundation
import Logging
import PostgresNIO
import RecoTracking

/// A `pg_snapshot` ("xmin:xmax:xip,…") with the parts the claim queries bind.
struct PostgresSnapshot: Equatable, Sendable {
    /// The snapshot as PostgreSQL prints it.
    let text: String
    /// The first transaction id it sees as not yet started.
    let xmax: Int64
    /// The transactions it sees as in progress.
    let inProgress: [Int64]

    /// A snapshot that sees no transaction committed: nothing of a dataset is claimed.
    static let nothing = PostgresSnapshot(text: "1:1:")!

    init?(text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let xmax = Int64(parts[1]) else { return nil }
        self.text = text
        self.xmax = xmax
        inProgress = parts[2].split(separator: ",").compactMap { Int64($0) }
    }
}

/// How far a queue's claims have read one dataset (see ``PostgresSchema``): every record `prev` sees
/// committed, and of the window (`cur` sees, `prev` does not) every one at or below `pos`.
struct DatasetProgress: Sendable {
    var prev: PostgresSnapshot
    var cur: PostgresSnapshot?
    var pos: (xact: Int64, id: Int64)

    static let start = DatasetProgress(prev: .nothing, cur: nil, pos: (0, 0))
}

/// The datasets of a schema: which exist, which appenders write, how far a queue has read one, what is
/// unclaimed in it; their rotation and dropping.
enum PostgresDatasets {
    /// Whether `error` is PostgreSQL's `undefined_table`: a dataset dropped since it was named.
    static func isUndefinedTable(_ error: any Error) -> Bool {
        PostgresTrackingStore.sqlState(of: error) == "42P01"
    }

    /// The dataset appenders write now, its `datasets` row locked `FOR KEY SHARE` until the transaction
    /// ends so that it cannot be dropped under the append.
    static func lockCurrent(schema s: String, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        for _ in 0..<10 {
            // No row when a rotation sealed the dataset this statement's snapshot saw as current: look again.
            for try await n in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT n FROM \(s).datasets WHERE NOT sealed ORDER BY n DESC LIMIT 1 FOR KEY SHARE
                """), logger: logger).decode(Int32.self) { return Int(n) }
        }
        throw TrackingError.journal("PostgreSQL: schema \(s) has no dataset open for appends (run the migration)")
    }

    /// The datasets that exist, oldest first.
    static func live(schema s: String, on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        var numbers: [Int] = []
        for try await n in try await connection.query(PostgresQuery(unsafeSQL: "SELECT n FROM \(s).datasets ORDER BY n"), logger: logger)
            .decode(Int32.self) { numbers.append(Int(n)) }
        return numbers
    }

    /// How far `queue`'s claims have read dataset `n`.
    static func progress(_ n: Int, schema s: String, queue: String, on connection: PostgresConnection, logger: Logger) async throws -> DatasetProgress {
        var binds = PostgresBindings()
        binds.append(queue)
        for try await (prev, cur, xact, id) in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT prev::text, cur::text, pos_xact, pos_id FROM \(s).progress_\(n) WHERE queue = $1
            """, binds: binds), logger: logger).decode((String, String?, Int64, Int64).self) {
            guard let prev = PostgresSnapshot(text: prev) else { break }
            return DatasetProgress(prev: prev, cur: cur.flatMap(PostgresSnapshot.init(text:)), pos: (xact, id))
        }
        return .start
    }

    /// Saves how far `queue`'s claims have read dataset `n`.
    static func save(_ progress: DatasetProgress, _ n: Int, schema s: String, queue: String, on connection: PostgresConnection,
                     logger: Logger) async throws {
        var binds = PostgresBindings()
        binds.append(queue)
        binds.append(progress.prev.text)
        binds.append(progress.cur?.text)
        binds.append(progress.pos.xact)
        binds.append(progress.pos.id)
        try await connection.query(PostgresQuery(unsafeSQL: """
            INSERT INTO \(s).progress_\(n) (queue, prev, cur, pos_xact, pos_id) VALUES ($1, $2::text::pg_snapshot, $3::text::pg_snapshot, $4, $5)
            ON CONFLICT (queue) DO UPDATE SET prev = excluded.prev, cur = excluded.cur, pos_xact = excluded.pos_xact, pos_id = excluded.pos_id
            """, binds: binds), logger: logger)
    }

    /// The snapshot of the statement that asks.
    static func currentSnapshot(on connection: PostgresConnection, logger: Logger) async throws -> PostgresSnapshot {
        for try await text in try await connection.query("SELECT pg_current_snapshot()::text", logger: logger).decode(String.self) {
            if let snapshot = PostgresSnapshot(text: text) { return snapshot }
        }
        throw TrackingError.journal("PostgreSQL: could not read pg_current_snapshot()")
    }

    /// The next records of the window of `progress` in dataset `n` after its position, in (`xact`, `id`)
    /// order, at most `limit`: those of transactions `prev` saw in progress (index lookups by id), then
    /// the range from `prev`'s `xmax` to `cur`'s (an index range from the position). Columns: xact, id,
    /// events, occurred, seconds since appended, bytes.
    static func windowQuery(_ n: Int, schema s: String, queue: String, progress: DatasetProgress, limit: Int) -> PostgresQuery {
        let cur = progress.cur ?? progress.prev
        var binds = PostgresBindings()
        binds.append(queue)
        binds.append(progress.prev.inProgress)
        binds.append(cur.text)
        binds.append(progress.pos.xact)
        binds.append(progress.pos.id)
        binds.append(progress.prev.xmax)
        binds.append(cur.xmax)
        binds.append(cur.inProgress)
        binds.append(Int64(limit))
        return PostgresQuery(unsafeSQL: """
            SELECT xact, id, events, occurred, extract(epoch FROM clock_timestamp() - appended)::float8, bytes FROM (
              (SELECT * FROM \(s).records_\(n) WHERE queue = $1 AND xact = ANY($2::bigint[]) AND (xact, id) > ($4, $5)
                 AND pg_visible_in_snapshot(xact::text::xid8, $3::text::pg_snapshot) ORDER BY xact, id LIMIT $9)
              UNION ALL
              (SELECT * FROM \(s).records_\(n) WHERE queue = $1 AND xact >= $6 AND xact < $7 AND (xact, id) > ($4, $5)
                 AND xact <> ALL($8::bigint[]) ORDER BY xact, id LIMIT $9)
            ) r ORDER BY xact, id LIMIT $9
            """, binds: binds)
    }

    /// `columns` of the records of `queue` in dataset `n` that no claim took yet (`progress` says which
    /// did): of transactions `prev` saw in progress and not claimed in the window, past the position,
    /// and below it but of transactions `cur` saw in progress. Index lookups and ranges, never a scan of
    /// what was claimed before the window.
    static func unclaimedQuery(_ n: Int, schema s: String, queue: String, progress: DatasetProgress, columns: String) -> PostgresQuery {
        let cur = progress.cur ?? progress.prev
        let pos = progress.cur == nil ? (xact: Int64(0), id: Int64(0)) : progress.pos
        var binds = PostgresBindings()
        binds.append(queue)
        binds.append(progress.prev.inProgress)
        binds.append(cur.text)
        binds.append(pos.xact)
        binds.append(pos.id)
        binds.append(progress.prev.xmax)
        binds.append(progress.cur?.inProgress ?? [])
        return PostgresQuery(unsafeSQL: """
            SELECT \(columns) FROM \(s).records_\(n) WHERE queue = $1 AND xact = ANY($2::bigint[])
              AND NOT (pg_visible_in_snapshot(xact::text::xid8, $3::text::pg_snapshot) AND (xact, id) <= ($4, $5))
            UNION ALL
            SELECT \(columns) FROM \(s).records_\(n) WHERE queue = $1 AND xact >= $6 AND (xact, id) > ($4, $5)
            UNION ALL
            SELECT \(columns) FROM \(s).records_\(n) WHERE queue = $1 AND xact >= $6 AND (xact, id) <= ($4, $5) AND xact = ANY($7::bigint[])
            """, binds: binds)
    }

    // MARK: Rotation and dropping

    /// Seals the dataset appenders write once it holds `rotateRecords` records or is `rotateAge` old (and
    /// holds any), opening the next; then drops every sealed dataset that is wholly claimed and settled.
    /// Returns the datasets dropped.
    @discardableResult
    static func maintain(client: PostgresClient, schema s: String, rotateRecords: Int, rotateAge: Duration, logger: Logger) async throws -> [Int] {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET LOCAL lock_timeout = '1s'", logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext('recokit.rotate.\(s)'))"), logger: logger)
            var current: (n: Int, age: Double, first: Int64)?
            for try await (n, age, first) in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT n, extract(epoch FROM now() - created)::float8, first_id FROM \(s).datasets WHERE NOT sealed ORDER BY n DESC LIMIT 1
                """), logger: logger).decode((Int32, Double, Int64).self) { current = (Int(n), age, first) }
            guard let current else { return }
            var held = false, last: Int64 = 0
            for try await (any, value) in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT EXISTS (SELECT 1 FROM \(s).records_\(current.n)), (SELECT last_value FROM \(s).record_ids)
                """), logger: logger).decode((Bool, Int64).self) { (held, last) = (any, value) }
            let ageLimit = Double(rotateAge.components.seconds) + Double(rotateAge.components.attoseconds) / 1e18
            guard held, last - current.first >= rotateRecords || current.age >= ageLimit else { return }
            try await connection.query(PostgresQuery(unsafeSQL: "UPDATE \(s).datasets SET sealed = true WHERE n = \(current.n)"), logger: logger)
            for statement in PostgresSchema.createDataset(current.n + 1, schema: s) {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
        var sealed: [Int] = []
        for try await n in try await client.query(PostgresQuery(unsafeSQL: "SELECT n FROM \(s).datasets WHERE sealed ORDER BY n"), logger: logger)
            .decode(Int32.self) { sealed.append(Int(n)) }
        var dropped: [Int] = []
        for n in sealed where try await drop(n, client: client, schema: s, logger: logger) { dropped.append(n) }
        return dropped
    }

    /// Drops sealed dataset `n` if every queue claimed all its records and every claim in it is settled;
    /// whether it did. Gives up (false) when an appender still holds it or a reader's lock lasts.
    static func drop(_ n: Int, client: PostgresClient, schema s: String, logger: Logger) async throws -> Bool {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET LOCAL lock_timeout = '200ms'", logger: logger)
                // Waits for appenders that chose this dataset before it was sealed; none can choose it after.
                var present = false
                for try await _ in try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT n FROM \(s).datasets WHERE n = \(n) AND sealed FOR UPDATE
                    """), logger: logger).decode(Int32.self) { present = true }
                guard present else { return false }
                var queues: [String] = []
                for try await queue in try await connection.query(PostgresQuery(unsafeSQL: "SELECT queue FROM \(s).queues"), logger: logger)
                    .decode(String.self) { queues.append(queue) }
                // What is unclaimed first, then the claims: a claim that commits in between shows in the second.
                for queue in queues {
                    let progress = try await Self.progress(n, schema: s, queue: queue, on: connection, logger: logger)
                    let query = unclaimedQuery(n, schema: s, queue: queue, progress: progress, columns: "1")
                    for try await unclaimed in try await connection.query(PostgresQuery(unsafeSQL: "SELECT EXISTS (\(query.sql))", binds: query.binds),
                                                                  logger: logger).decode(Bool.self) where unclaimed { return false }
                }
                for try await open in try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT EXISTS (SELECT 1 FROM \(s).claims_\(n) WHERE NOT settled)
                    """), logger: logger).decode(Bool.self) where open { return false }
                // Claims reading the tables now finish first; a lock held long elsewhere makes this give up.
                try await connection.query("SET LOCAL lock_timeout = '50ms'", logger: logger)
                for statement in PostgresSchema.dropDataset(n, schema: s) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                return true
            }
        } catch where PostgresTrackingStore.sqlState(of: error) == "55P03" {
            return false  // lock_not_available: tried again at the next round
        }
    }
}
