// recokit-postgres: setup, relay and status over a PostgreSQL store.
import Foundation
import Logging
import PostgresNIO
import RecoKitAsyncHTTPClient
import RecoKitPostgres
import RecoRelay
import RecoTracking

let usage = """
    Usage: recokit-postgres setup --postgres URL [--schema NAME] [--print-sql]
           recokit-postgres relay --postgres URL [--queue NAME] [--schema NAME] --vendor segmentify|reteno --endpoint URL [...]
           recokit-postgres status --postgres URL [--schema NAME]

    setup   creates or upgrades the store's tables (--print-sql prints the SQL instead; no server needed)
    relay   recokit relay over PostgreSQL: see 'recokit-postgres help relay'
    status  prints, per queue: pending, claimed, dead-lettered events and the oldest pending age

    URL: postgres://user:password@host:port/database; the schema is recokit by default.
    """

/// A failure of the run: said on stderr, exit 1.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A wrong command line: said on stderr with a hint, exit 2.
struct Usage: Error { var text: String }

func say(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

/// Parses `--name value` and `--flag` words: every one must be known.
func parse(_ words: [String], options: Set<String>, flags: Set<String>) throws -> (values: [String: String], flags: Set<String>) {
    var values: [String: String] = [:], given: Set<String> = []
    var index = 0
    while index < words.count {
        let word = words[index]
        guard word.hasPrefix("--") else { throw Usage(text: "unexpected argument \"\(word)\"") }
        var name = String(word.dropFirst(2)), inline: String?
        if let equals = name.firstIndex(of: "=") { inline = String(name[name.index(after: equals)...]); name = String(name[..<equals]) }
        if flags.contains(name), inline == nil { given.insert(name); index += 1; continue }
        guard options.contains(name) else { throw Usage(text: "unknown option \(word)") }
        if let inline { values[name] = inline; index += 1; continue }
        guard index + 1 < words.count else { throw Usage(text: "--\(name) needs a value") }
        values[name] = words[index + 1]
        index += 2
    }
    return (values, given)
}

/// Runs `body` with a running client of `url`, then stops the client.
func withClient<Result: Sendable>(_ url: String, _ body: @Sendable (PostgresClient) async throws -> Result) async throws -> Result {
    let client = PostgresClient(configuration: try PostgresClient.Configuration.recoKit(url: url), backgroundLogger: quietLogger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        return try await body(client)
    }
}

let quietLogger: Logger = {
    var logger = Logger(label: "recokit-postgres")
    logger.logLevel = .critical
    return logger
}()

/// `relay`'s pool and the URL it was made from (`--postgres URL` or `--postgres=URL`), made before the relay
/// starts so that it runs in the task group around the relay (at the end of this file); nil when the option
/// is missing or wrong, which the relay's own check then says.
let relayClient: (url: String, client: PostgresClient)? = {
    let words = Array(CommandLine.arguments.dropFirst())
    guard words.first == "relay" else { return nil }
    var url: String?
    for (index, word) in words.enumerated() {
        if word == "--postgres", index + 1 < words.count { url = words[index + 1] }
        if word.hasPrefix("--postgres=") { url = String(word.dropFirst("--postgres=".count)) }
    }
    guard let url, let configuration = try? PostgresClient.Configuration.recoKit(url: url) else { return nil }
    return (url, PostgresClient(configuration: configuration, backgroundLogger: quietLogger))
}()

/// The store option set of `relay`: the same tables as `setup`, one queue (the vendor's name by default).
let postgresStore = Relay.Store(
    noun: "PostgreSQL store",
    synopsis: "--postgres URL [--queue NAME] [--schema NAME] [--lease SECONDS]",
    optionsHelp: """
          --postgres URL       the database (postgres://user:password@host:port/database); the tables must
                               exist: recokit-postgres setup creates them
          --queue NAME         the queue in the tables (default: the vendor's name)
          --schema NAME        the tables' schema (default recokit)
          --lease SECONDS      how long a batch this relay claims stays its own (default 120): past it, a
                               relay that died is taken for dead and another delivers the batch
        """,
    // `vendor` is the relay's own option, read here too for the queue's default name.
    options: ["postgres", "queue", "schema", "lease", "vendor"],
    flags: [],
    check: { options in
        guard let url = options.value("postgres") else { throw Relay.usageError("--postgres is required") }
        do { _ = try PostgresClient.Configuration.recoKit(url: url) } catch { throw Relay.usageError("--postgres: \(describe(error))") }
        if let queue = options.value("queue"), queue.isEmpty || queue.utf8.count > 48 {
            throw Relay.usageError("--queue is 1 to 48 bytes, not \"\(queue)\"")
        }
        _ = try lease(options.value("lease"))
    },
    open: { options in
        guard let (url, client) = relayClient, url == options.value("postgres") else {
            throw Failure("--postgres: give it once, as --postgres URL or --postgres=URL")
        }
        let schema = options.value("schema") ?? "recokit"
        // Fail at start, saying so, when the server cannot be reached or the tables are missing.
        do {
            _ = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: "", logger: quietLogger)
        } catch {
            throw Failure("--postgres: \(describe(error)) (is the server up, and did recokit-postgres setup run?)")
        }
        let store = try PostgresTrackingStore(client: client, queue: options.value("queue") ?? options.value("vendor") ?? "default",
                                              schema: schema, commitInterval: nil, lease: try lease(options.value("lease")),
                                              logger: quietLogger)
        return Relay.Opened(store: store)
    })

/// `--lease SECONDS`: 0.1 to 86400 seconds, 120 by default.
func lease(_ text: String?) throws -> Duration {
    guard let text else { return .seconds(120) }
    guard let seconds = Double(text), seconds >= 0.1, seconds <= 86400 else {
        throw Relay.usageError("--lease is a number of seconds from 0.1 to 86400, not \"\(text)\"")
    }
    return .milliseconds(Int64(seconds * 1000))
}

func describe(_ error: any Error) -> String {
    if let error = error as? TrackingError { return error.message }
    if let error = error as? PSQLError {
        if let message = error.serverInfo?[.message] { return message }
        return "\(error.code)"
    }
    return "\(error)"
}

func setup(_ words: [String]) async throws -> Int32 {
    let (values, flags) = try parse(words, options: ["postgres", "schema"], flags: ["print-sql"])
    let schema = values["schema"] ?? "recokit"
    if flags.contains("print-sql") {
        do { print(try PostgresSchema.sql(schema: schema), terminator: "") } catch { throw Usage(text: "--schema: \(describe(error))") }
        return 0
    }
    guard let url = values["postgres"] else { throw Usage(text: "--postgres is required (or --print-sql)") }
    do { _ = try PostgresClient.Configuration.recoKit(url: url) } catch { throw Usage(text: "--postgres: \(describe(error))") }
    let applied = try await withClient(url) { client in
        try await PostgresTrackingStore.migrate(client: client, schema: schema, logger: quietLogger)
    }
    say(applied.isEmpty ? "setup: schema \(schema) is up to date (version \(PostgresSchema.version))"
                        : "setup: schema \(schema) now at version \(PostgresSchema.version) (applied \(applied.map(String.init).joined(separator: ", ")))")
    return 0
}

func status(_ words: [String]) async throws -> Int32 {
    let (values, _) = try parse(words, options: ["postgres", "schema"], flags: [])
    guard let url = values["postgres"] else { throw Usage(text: "--postgres is required") }
    do { _ = try PostgresClient.Configuration.recoKit(url: url) } catch { throw Usage(text: "--postgres: \(describe(error))") }
    let schema = values["schema"] ?? "recokit"
    let lines = try await withClient(url) { client -> [String] in
        var lines: [String] = []
        for queue in try await PostgresTrackingStore.queues(client: client, schema: schema, logger: quietLogger) {
            let status = try await PostgresTrackingStore.readStatus(client: client, schema: schema, queue: queue, logger: quietLogger)
            let age = status.oldestPendingAge(now: Date()).map { "\(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)s" } ?? "-"
            lines.append("\(queue)\t\(status.pendingEvents)\t\(status.claimedEvents)\t\(status.deadLetters ?? 0)\t\(age)")
        }
        return lines
    }
    print("queue\tpending\tclaimed\tdead-lettered\toldest-pending-age")
    lines.forEach { print($0) }
    return 0
}

let arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.first ?? ""
let rest = Array(arguments.dropFirst())
let code: Int32
switch command {
case "relay":
    // The pool runs beside the relay and stops after it.
    code = await withDiscardingTaskGroup(returning: Int32.self) { group in
        if let client = relayClient?.client { group.addTask { await client.run() } }
        defer { group.cancelAll() }
        return await Relay.run(program: "recokit-postgres", rest, store: postgresStore, transport: AsyncHTTPClientTransport.shared)
    }
case "help" where rest.first == "relay":
    print(Relay.usage(program: "recokit-postgres", store: postgresStore))
    code = 0
case "help", "--help", "-h":
    print(usage)
    code = 0
case "setup", "status":
    do {
        code = try await command == "setup" ? setup(rest) : status(rest)
    } catch let error as Usage {
        say("error: \(error.text)")
        say("see 'recokit-postgres help'")
        code = 2
    } catch {
        say("error: \(describe(error))")
        code = 1
    }
default:
    say(command.isEmpty ? "error: no command given" : "error: unknown command \"\(command)\"")
    say(usage)
    code = 2
}
exit(code)
