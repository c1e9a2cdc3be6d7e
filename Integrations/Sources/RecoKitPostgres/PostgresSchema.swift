import Foundation
import Logging
import PostgresNIO
import RecoTracking

/// The store's tables, created and upgraded by numbered migrations that ``PostgresTrackingStore/migrate(client:schema:)``
/// runs in one transaction, or ``sql(schema:)`` prints for a DBA.
///
/// Records live in *datasets*: sets of three tables numbered `n` that are created together and dropped
/// together, never cleaned row by row.
/// - `records_<n>`: append-only, one row per record. Its key is the record's first event id (run,
///   sequence) with `copy` (0 for an append, the dead letter's id for a requeued one), so a retried append
///   into the same dataset is a no-op. `xact` is the appending transaction's top-level id
///   (`pg_current_xact_id()`), `id` a number from the shared sequence `record_ids`.
/// - `progress_<n>`: one row per queue: how far the queue's claims have read the dataset, as a pair of
///   snapshots (`prev`, `cur`, from `pg_current_snapshot()`) and a position (`pos_xact`, `pos_id`). Every
///   record whose transaction `prev` sees as committed is in a claim; of those `cur` sees and `prev` does
///   not (the *window*), every one at or below the position in (`xact`, `id`) order is too.
/// - `claims_<n>`: one row per batch: its records' (`xact`, `id`) pairs, its lease, attempts, and whether it
///   was given back or settled.
///
/// Beside them: `datasets` (which exist, which one appenders write, when each was made), `queues` (every
/// queue that ever appended), `dead_letters` (events the vendor refused, with its reason and when).
///
/// **Why no transaction can hold delivery back.** A window is the set of records committed between two
/// snapshots: it never changes once `cur` is taken, whenever its records' transactions started, so it can
/// be read in (`xact`, `id`) order in as many claims as it takes. A record committed late (an append that
/// began before others and committed after them, or ``PostgresTrackingStore/append(_:on:logger:)`` in a
/// shop's long transaction) is in no window until a `cur` sees it committed; then it is in the next window,
/// found through the `prev` snapshot's list of transactions in progress. So a claim never waits for the
/// oldest running transaction (no `xmin` gate): a transaction held open elsewhere only puts its id in
/// those lists. Claims read by index from the window's start (`prev`'s `xmax` and its in-progress ids) and
/// the position, so their cost does not grow with the records already claimed in a dataset.
///
/// **Why nothing bloats.** Records are never updated or deleted; a dataset's claims and progress rows are
/// updated, and their dead versions, which a held transaction keeps, go with the dataset when it is dropped.
/// A dataset is sealed (appenders move to a new one) once it holds `rotateRecords` records or is
/// `rotateAge` old, and dropped (`DROP TABLE`) once every queue has claimed all its records and every
/// claim in it is settled.
///
/// **Why rotation is safe.** An appender reads the dataset to write in the statement that locks its
/// `datasets` row (`FOR KEY SHARE`, until the appender's commit); the dropper takes that row `FOR UPDATE`
/// (under a lock timeout, retried later), so a dataset is never dropped under a transaction that may still
/// write to it, and none can begin writing to it afterwards. It checks what is unclaimed before the claims,
/// both after taking that lock. A claim, status read, settle or give-back that names a dataset dropped
/// meanwhile finds its tables gone (`undefined_table`): a claim or read starts over, a settle or give-back
/// is done (a dataset is dropped only once every claim in it is settled).
///
/// **Claims** of one queue take turns under an advisory transaction lock of the queue: a claim reads
/// hundreds of events, so they are few, and taking them in turn keeps the position exact without locking
/// or updating any record row (`FOR UPDATE SKIP LOCKED` would need a lock, and a status update, per record).
public enum PostgresSchema {
    /// The newest schema version this library knows.
    public static let version = 1

    /// A schema name as given, checked: lowercase letters, digits and `_`, starting with a letter.
    static func checked(_ schema: String) throws(TrackingError) -> String {
        let valid = !schema.isEmpty && schema.count <= 40 && schema.first!.isLetter
            && schema.allSatisfy { ($0.isLetter && $0.isLowercase && $0.isASCII) || ("0"..."9").contains($0) || $0 == "_" }
        guard valid else {
            throw .configuration("schema name \"\(schema)\": use 1 to 40 lowercase letters, digits or _, starting with a letter")
        }
        return schema
    }

    /// The statements that create dataset `n`'s tables and list it in `datasets`, appenders' from its commit.
    static func createDataset(_ n: Int, schema s: String) -> [String] {
        [
            "CREATE TABLE \(s).records_\(n) (queue text NOT NULL, run bigint NOT NULL, seq bigint NOT NULL, copy bigint NOT NULL DEFAULT 0, "
                + "xact bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint), id bigint NOT NULL DEFAULT nextval('\(s).record_ids'), "
                + "events int NOT NULL, occurred bigint NOT NULL, appended timestamptz NOT NULL DEFAULT now(), bytes bytea NOT NULL, "
                + "PRIMARY KEY (queue, run, seq, copy))",
            "CREATE INDEX records_\(n)_order ON \(s).records_\(n) (queue, xact, id)",
            "CREATE TABLE \(s).progress_\(n) (queue text PRIMARY KEY, prev pg_snapshot NOT NULL, cur pg_snapshot, "
                + "pos_xact bigint NOT NULL DEFAULT 0, pos_id bigint NOT NULL DEFAULT 0)",
            "CREATE TABLE \(s).claims_\(n) (id bigserial PRIMARY KEY, queue text NOT NULL, xacts bigint[] NOT NULL, ids bigint[] NOT NULL, "
                + "events int NOT NULL, bytes bigint NOT NULL, first_occurred bigint NOT NULL, lease_until timestamptz NOT NULL, "
                + "attempts int NOT NULL DEFAULT 0, given_back boolean NOT NULL DEFAULT false, settled boolean NOT NULL DEFAULT false)",
            "CREATE INDEX claims_\(n)_open ON \(s).claims_\(n) (queue, lease_until) WHERE NOT settled",
            "INSERT INTO \(s).datasets (n, first_id) VALUES (\(n), (SELECT last_value FROM \(s).record_ids))",
        ]
    }

    /// The statements that drop dataset `n`'s tables and its `datasets` row.
    static func dropDataset(_ n: Int, schema s: String) -> [String] {
        ["DELETE FROM \(s).datasets WHERE n = \(n)", "DROP TABLE \(s).records_\(n), \(s).progress_\(n), \(s).claims_\(n)"]
    }

    /// The statements of each migration, in order, for `schema`.
    static func migrations(schema s: String) -> [[String]] {
        [[
            "CREATE SEQUENCE \(s).record_ids",
            "CREATE TABLE \(s).datasets (n int PRIMARY KEY, created timestamptz NOT NULL DEFAULT now(), first_id bigint NOT NULL, "
                + "sealed boolean NOT NULL DEFAULT false)",
            "CREATE TABLE \(s).queues (queue text PRIMARY KEY)",
            "CREATE TABLE \(s).dead_letters (id bigserial PRIMARY KEY, queue text NOT NULL, record bytea NOT NULL, reason text NOT NULL, "
                + "at timestamptz NOT NULL DEFAULT now())",
            "CREATE INDEX dead_letters_queue ON \(s).dead_letters (queue, id)",
        ] + createDataset(1, schema: s)]
    }

    /// The whole schema as SQL, every migration, for `schema` (what `recokit-postgres setup --print-sql` prints).
    public static func sql(schema: String = "recokit") throws(TrackingError) -> String {
        let s = try checked(schema)
        var lines = ["BEGIN;", "CREATE SCHEMA IF NOT EXISTS \(s);",
                     "CREATE TABLE IF NOT EXISTS \(s).migrations (version int PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now());"]
        for (index, statements) in migrations(schema: s).enumerated() {
            lines.append("-- version \(index + 1)")
            lines += statements.map { $0 + ";" }
            lines.append("INSERT INTO \(s).migrations (version) VALUES (\(index + 1));")
        }
        lines.append("COMMIT;")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Creates or upgrades the tables in `schema`, under a lock so that processes starting together migrate once;
    /// returns the versions applied now (empty when up to date).
    @discardableResult
    static func migrate(client: PostgresClient, schema: String, logger: Logger) async throws -> [Int] {
        let s = try checked(schema)
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext('recokit.migrate'))", logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(s)"), logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE TABLE IF NOT EXISTS \(s).migrations "
                                                     + "(version int PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())"), logger: logger)
            var current = 0
            for try await version in try await connection.query(PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0) FROM \(s).migrations"),
                                                                logger: logger).decode(Int.self) {
                current = version
            }
            guard current <= version else {
                throw TrackingError.configuration("schema \(s) is at version \(current), newer than this library's \(version): upgrade RecoKit")
            }
            var applied: [Int] = []
            for (index, statements) in migrations(schema: s).enumerated() where index + 1 > current {
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \(s).migrations (version) VALUES (\(index + 1))"), logger: logger)
                applied.append(index + 1)
            }
            return applied
        }
    }
}
