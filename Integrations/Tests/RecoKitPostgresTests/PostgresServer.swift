import Foundation
import Logging
import PostgresNIO
import RecoKitPostgres
import Testing

/// Every suite that uses the test server, one test at a time: the kill test crashes the server, and
/// tests running beside it met the crash half-way and hung.
@Suite(.serialized) enum PostgresServerTests {}

/// The test server, from `RECOKIT_POSTGRES_URL` (`Integrations/Scripts/postgres-server.sh start` prints it).
enum PostgresServer {
    static let howToStart = """
        RECOKIT_POSTGRES_URL is not set: these tests need a PostgreSQL server. Start one with
          eval "$(Integrations/Scripts/postgres-server.sh start)"
        run the tests, then Integrations/Scripts/postgres-server.sh stop
        """

    static var url: String? { ProcessInfo.processInfo.environment["RECOKIT_POSTGRES_URL"] }

    static let logger: Logger = {
        var logger = Logger(label: "RecoKitPostgresTests")
        logger.logLevel = .critical
        return logger
    }()

    /// Runs `body` with a running client and a fresh schema of its own, dropped afterwards.
    static func withSchema<Result: Sendable>(_ body: @Sendable (PostgresClient, String) async throws -> Result) async throws -> Result {
        guard let url else {
            Issue.record(Comment(rawValue: howToStart))
            throw CancellationError()
        }
        let client = PostgresClient(configuration: try .recoKit(url: url), backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let schema = "t_\(UInt32.random(in: 0...UInt32.max))"
            try await PostgresTrackingStore.migrate(client: client, schema: schema, logger: logger)
            do {
                let result = try await body(client, schema)
                try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger)
                return result
            } catch {
                _ = try? await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger)
                throw error
            }
        }
    }
}
