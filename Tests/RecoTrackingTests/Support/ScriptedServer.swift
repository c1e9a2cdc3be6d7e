import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RecoKit
import RecoTracking
import RecoKitTesting

/// A scripted HTTP server on 127.0.0.1 (Python's standard library, run as a child process).
final class ScriptedServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// One stored event: the id the tracker gave it, the product (or interaction) id, its kind, its block.
    struct Received: Hashable {
        let id: String
        let product: String
        let kind: String
        let instance: String
    }

    init() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-server-\(UUID().uuidString).py")
        try ScriptedServerSource.python.write(to: script, atomically: true, encoding: .utf8)
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardOutput = output
        try process.run()
        defer { try? FileManager.default.removeItem(at: script) }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TestFailure("the test server did not start")
        }
        self.port = port
    }

    /// A server started without holding one of Swift's cooperative threads while Python starts
    /// (see `blockingWork`).
    static func started() async throws -> ScriptedServer {
        try await blockingWork { try ScriptedServer() }
    }

    deinit { stop() }

    func stop() {
        // SIGKILL: the child may inherit a signal mask that blocks SIGTERM.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Queues reply steps for the next events requests.
    func script(_ steps: [[String: JSONValue]]) async throws {
        _ = try await call("/_script", body: .array(steps.map { .object($0) }))
    }

    func configure(bad: [String]? = nil, down: Bool? = nil, badCode: String? = nil, badMessage: String? = nil,
                   delay: Double? = nil) async throws {
        var fields: [String: JSONValue] = [:]
        if let delay { fields["delay"] = .number(JSONNumber(text: String(delay))!) }
        if let badCode { fields["badCode"] = .string(badCode) }
        if let badMessage { fields["badMessage"] = .string(badMessage) }
        if let bad { fields["bad"] = .array(bad.map { .string($0) }) }
        if let down { fields["down"] = .bool(down) }
        _ = try await call("/_config", body: .object(fields))
    }

    func received() async throws -> [Received] {
        let value = try await call("/_received", body: nil)
        return (value.arrayValue ?? []).map { entry in
            Received(id: entry[0]?.stringValue ?? "", product: entry[1]?.stringValue ?? "",
                     kind: entry[2]?.stringValue ?? "", instance: entry[3]?.stringValue ?? "")
        }
    }

    func log() async throws -> [String] {
        (try await call("/_log", body: nil).arrayValue ?? []).compactMap(\.stringValue)
    }

    private func call(_ path: String, body: JSONValue?) async throws -> JSONValue {
        let request = VendorRequest(method: body == nil ? "GET" : "POST", url: base.appendingPathComponent(path), headers: [],
                                      body: body.map { Data(JSONWriter.string($0).utf8) } ?? Data())
        let reply = try await URLSessionTransport.shared.send(request, timeout: .seconds(30))
        return try JSONValue(parsing: reply.body)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
