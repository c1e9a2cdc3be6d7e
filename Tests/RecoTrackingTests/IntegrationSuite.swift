import Foundation
import Testing

/// The suites that start servers and processes run one after another, so that the load test's
/// resident-memory measure is not disturbed by the others and the 2-core machine is not oversubscribed.
@Suite("Tracking against real servers and processes", .serialized)
struct IntegrationSuite {}

extension IntegrationSuite {
    /// A stand-in vendor that is down and an empty journal directory, for `body`; both gone after it.
    static func withVendorDownAndAJournal(_ body: (ScriptedServer, URL) async throws -> Void) async throws {
        try await withVendorAndAJournal { server, directory in
            try await server.configure(down: true)
            try await body(server, directory)
        }
    }

    /// A scripted vendor on 127.0.0.1 and a journal directory not yet created, both gone afterwards.
    static func withVendorAndAJournal(_ body: (ScriptedServer, URL) async throws -> Void) async throws {
        let server = try await ScriptedServer.started()
        let directory = Fixtures.temporaryDirectory()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        try await body(server, directory)
    }
}
