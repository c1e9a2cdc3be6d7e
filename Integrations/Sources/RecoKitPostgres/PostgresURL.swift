import Foundation
import PostgresNIO
import RecoTracking

extension PostgresClient.Configuration {
    /// A configuration from a `postgres://user:password@host:port/database` URL (`postgresql://` too; the
    /// port 5432 by default, `?host=/path` for a Unix socket folder). TLS is off: use a socket or a
    /// private network, or build the configuration yourself for TLS.
    /// - Throws: ``RecoTracking/TrackingError/configuration(_:)`` saying which part is wrong.
    public static func recoKit(url text: String) throws(TrackingError) -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw .configuration("PostgreSQL URL \"\(text)\": expected postgres://user:password@host:port/database")
        }
        guard let user = url.user, !user.isEmpty else {
            throw .configuration("PostgreSQL URL \"\(text)\": no user name (postgres://USER@host/database)")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        guard !database.isEmpty else {
            throw .configuration("PostgreSQL URL \"\(text)\": no database name (postgres://user@host/DATABASE)")
        }
        let password = url.password?.removingPercentEncoding
        if let socketFolder = url.queryItems?.first(where: { $0.name == "host" })?.value, socketFolder.hasPrefix("/") {
            let port = url.port ?? 5432
            return .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        guard let host = url.host, !host.isEmpty else {
            throw .configuration("PostgreSQL URL \"\(text)\": no host (postgres://user@HOST:port/database)")
        }
        return .init(host: host, port: url.port ?? 5432, username: user, password: password, database: database, tls: .disable)
    }
}
