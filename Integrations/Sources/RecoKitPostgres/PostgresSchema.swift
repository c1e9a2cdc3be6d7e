import Foundation
import Logging
import PostgresNIO
import RecoTracking

/// The store's tables, created and upgraded by numbered migrations that ``PostgresTrackingStore/migrate(client:schema:)``
/// runs in one transaction, or ``sql(schema:)`` prints for a DBA.
///
/// - `records`: append-only; one row per record, never updated or deleted row by row. Its key is the
///   record's first event id (run, sequence) with `copy` (0 for an append, the dead letter's id for a
///   requeued one), so a retried append is a no-op. `xact` is the appending transaction's 64-bit id: a
///   claim takes records only below the oldest transaction still running (`pg_snapshot_xmin`), in
///   (`xact`, `id`) order, so a record committed late can never fall behind a queue's cursor.
/// - `queues`: one row per queue, its cursor: every record at or below it is in a claim.
/// - `claims`: one row per batch, a range of `records` with its lease, attempts and whether it is settled.
/// - `dead_letters`: events the vendor refused, with its reason and when.
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

    /// The statements of each migration, in order, for `schema`.
    static func migrations(schema s: String) -> [[String]] {
        [[
            "CREATE TABLE \(s).records (queue text NOT NULL, run bigint NOT NULL, seq bigint NOT NULL, copy bigint NOT NULL DEFAULT 0, "
                + "xact bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint), id bigserial NOT NULL, events int NOT NULL, "
                + "occurred bigint NOT NULL, appended timestamptz NOT NULL DEFAULT now(), bytes bytea NOT NULL, "
                + "PRIMARY KEY (queue, run, seq, copy))",
            "CREATE INDEX records_order ON \(s).records (queue, xact, id)",
            "CREATE TABLE \(s).queues (queue text PRIMARY KEY, cursor_xact bigint NOT NULL DEFAULT 0, cursor_id bigint NOT NULL DEFAULT 0)",
            "CREATE TABLE \(s).claims (id bigserial PRIMARY KEY, queue text NOT NULL, first_xact bigint NOT NULL, first_id bigint NOT NULL, "
                + "last_xact bigint NOT NULL, last_id bigint NOT NULL, events int NOT NULL, bytes bigint NOT NULL, first_occurred bigint NOT NULL, "
                + "lease_until timestamptz NOT NULL, attempts int NOT NULL DEFAULT 0, given_back boolean NOT NULL DEFAULT false, "
                + "settled boolean NOT NULL DEFAULT false)",
            "CREATE INDEX claims_open ON \(s).claims (queue, lease_until) WHERE NOT settled",
            "CREATE TABLE \(s).dead_letters (id bigserial PRIMARY KEY, queue text NOT NULL, record bytea NOT NULL, reason text NOT NULL, "
                + "at timestamptz NOT NULL DEFAULT now())",
            "CREATE INDEX dead_letters_queue ON \(s).dead_letters (queue, id)",
        ]]
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
