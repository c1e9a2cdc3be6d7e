import Foundation
import Testing

/// The suites that start servers and processes run one after another in two lanes, this one and
/// ``RelayProcessSuite``, so that a 2-core machine runs at most two of them at once. This lane holds the
/// memory measures (the load test reads this process's resident memory; the large-journal test a
/// child's peak), which the other lane's suites, whose work is in child processes, do not disturb.
@Suite("Tracking against real servers and processes", .serialized)
struct IntegrationSuite {}

/// The second lane of suites that start servers and processes (see ``IntegrationSuite``): relays,
/// re-queues and journals as child processes, signalled, killed, damaged or faulted.
@Suite("Relays and journals as real processes", .serialized)
struct RelayProcessSuite {}

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
