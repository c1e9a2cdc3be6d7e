import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RecoPage

/// A scripted stand-in for vendors on 127.0.0.1 (Python's standard library, run as a child process;
/// see ``VendorServerSource``).
final class VendorServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// One reply: status, body, and how slowly it comes.
    struct Step {
        var status = 200
        var body = ""
        var headerDelay: Double = 0
        var bodyDelay: Double = 0
        var gate: String?
        var bodyGate: String?
        /// The body in chunks of this many bytes, with no length announced.
        var chunkSize: Int?
        /// A body of spaces that never ends, its length announced (1 TiB) or not.
        var endless: Endless?
        /// How fast an endless body comes, in bytes a second (as fast as it can when not given).
        var rate: Int?
        /// A `Location` header (for a redirect).
        var location: String?
        /// The `Content-Length` announced instead of the body's own, written as given; the server closes
        /// the connection after the body.
        var length: String?

        enum Endless: String { case announced = "length", chunked }

        var json: JSONValue {
            var fields: [String: JSONValue] = ["status": .number(JSONNumber(text: String(status))!), "body": .string(body)]
            if headerDelay > 0 { fields["headerDelay"] = .number(JSONNumber(text: String(headerDelay))!) }
            if bodyDelay > 0 { fields["bodyDelay"] = .number(JSONNumber(text: String(bodyDelay))!) }
            if let gate { fields["gate"] = .string(gate) }
            if let bodyGate { fields["bodyGate"] = .string(bodyGate) }
            if let chunkSize {
                fields["chunked"] = .bool(true)
                fields["chunkSize"] = .number(JSONNumber(text: String(chunkSize))!)
            }
            if let endless { fields["endless"] = .string(endless.rawValue) }
            if let rate { fields["rate"] = .number(JSONNumber(text: String(rate))!) }
            if let location { fields["location"] = .string(location) }
            if let length { fields["length"] = .string(length) }
            return .object(fields)
        }
    }

    init() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("recopage-vendors-\(UUID().uuidString).py")
        try VendorServerSource.python.write(to: script, atomically: true, encoding: .utf8)
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
            throw TestFailure("the vendor stand-in did not start")
        }
        self.port = port
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Scripts `path`: `steps` for the next requests, then `otherwise` for every later one.
    func route(_ path: String, _ steps: [Step] = [], otherwise: Step) async throws {
        _ = try await call("/_route", body: .object(["path": .string(path), "steps": .array(steps.map(\.json)), "default": otherwise.json]))
    }

    /// Lets the replies held at `gate` go.
    func open(_ gate: String) async throws {
        _ = try await call("/_open", body: .object(["gate": .string(gate)]))
    }

    /// How many requests reached `path`.
    func count(_ path: String) async throws -> Int {
        try await call("/_stats", body: nil)["counts"]?[path]?.intValue ?? 0
    }

    /// The most requests to `path` under way at once.
    func maxConcurrent(_ path: String) async throws -> Int {
        try await call("/_stats", body: nil)["maxConcurrent"]?[path]?.intValue ?? 0
    }

    /// The bytes of endless bodies sent on `path`, and how many of them are still being sent.
    func streamed(_ path: String) async throws -> (bytes: Int, underWay: Int) {
        let stats = try await call("/_stats", body: nil)
        return (stats["sent"]?[path]?.intValue ?? 0, stats["streaming"]?[path]?.intValue ?? 0)
    }

    /// The body of the last request to `path`.
    func lastBody(_ path: String) async throws -> String? {
        try await call("/_stats", body: nil)["last"]?[path]?.stringValue
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
