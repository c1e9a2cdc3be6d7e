// TrackingBenchmark: `track` throughput and latency (memory, batched, strict) and delivery throughput
// to a local HTTP server (Python's standard library on 127.0.0.1), with ratios to the targets.
// `track` is measured with delivery stalled (the transport never answers), so the figures are the
// intake path alone; delivery is measured separately, end to end, against a real local server.
// Run: swift run -c release TrackingBenchmark   (in Benchmarks/)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RecoDestinations
import RecoKit
import RecoTracking

/// Never answers (until cancelled when the run stops): the senders hold their first batches and stay idle, so
/// the figures measure `track` alone (validation, id, encoding, checksum, journal append, commit).
struct StalledTransport: Transport {
    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        try await Task.sleep(for: .seconds(86_400))
        throw CancellationError()
    }
}

let context = InteractionContext(userId: "-897541074991628287", sessionId: "-2739101928374651", lang: "TR", currency: "TRY",
                                 pageUrl: "https://www.shop.example/urun/240-lv09-kosu-ayakkabisi")
let productIds = (0..<1000).map { "\(100 + $0)-LV\($0 % 97)" }
let clicks = productIds.enumerated().map { index, id in
    Interaction(kind: .click, instanceId: "rec_pdp_1", interactionId: "act_1842", productId: id, position: index % 12 + 1, context: context)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
    sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-bench-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Tracks `count` events from `tasks` tasks; returns events/s and per-call latencies (sampled).
func measureTrack(_ label: String, durability: Durability, count: Int, tasks: Int, target: Double?, quiet: Bool = false) async throws {
    let directory = durability == .memory ? nil : temporaryDirectory()
    defer { if let directory { try? FileManager.default.removeItem(at: directory) } }
    let store = try JournalStore(directory: directory, durability: durability, maxBytes: 2 * 1024 * 1024 * 1024)
    var configuration = TrackerConfiguration()
    configuration.drainDeadline = .zero
    let destination = SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:9")!, apiKey: "k", origin: "shop.example")
    let tracker = Tracker(destination: destination, store: store, configuration: configuration, transport: StalledTransport())
    // Run as a server runs it (its commits on schedule, its senders stalled), stopped below.
    let run = Task { try await tracker.run() }
    let perTask = count / tasks
    let clock = ContinuousClock()
    let start = clock.now
    let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
        for task in 0..<tasks {
            group.addTask {
                var samples: [Duration] = []
                samples.reserveCapacity(perTask / 10 + 1)
                for number in 0..<perTask {
                    let interaction = clicks[(number &+ task) % clicks.count]
                    if number % 10 == 0 {
                        let before = clock.now
                        try tracker.track(interaction)
                        samples.append(before.duration(to: clock.now))
                    } else {
                        try tracker.track(interaction)
                    }
                }
                return samples
            }
        }
        var all: [Duration] = []
        for try await samples in group { all += samples }
        return all.sorted()
    }
    let elapsed = seconds(start.duration(to: clock.now))
    let rate = Double(perTask * tasks) / elapsed
    run.cancel()
    try await run.value
    var line = "\(label): \(perTask * tasks) events from \(tasks) task(s) in \(String(format: "%.3f", elapsed)) s = "
        + "\(Int(rate)) events/s; p50 \(Int(seconds(percentile(latencies, 0.5)) * 1e9)) ns, p99 \(Int(seconds(percentile(latencies, 0.99)) * 1e9)) ns"
    if let target { line += String(format: "; target %d events/s, ratio %.2f", Int(target), rate / target) }
    if !quiet { print(line) }
}

/// A local server that stores nothing and answers 200; counts events.
func startServer() throws -> (Process, Int) {
    let script = #"""
import socket
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def setup(self):
        BaseHTTPRequestHandler.setup(self)
        # Headers and body go out in two writes: without this, delayed ACKs add 40 ms per reply.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        data = b'{"statusCode":"SUCCESS"}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
s = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
"""#
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var line = Data()
    while !line.contains(10) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
    }
    guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw TrackingError.configuration("the benchmark server did not start")
    }
    return (process, port)
}

func measureDelivery(count: Int) async throws {
    let (server, port) = try startServer()
    defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
    var configuration = TrackerConfiguration()
    configuration.flushInterval = .milliseconds(20)
    configuration.drainDeadline = .seconds(5)
    let destination = SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:\(port)")!, apiKey: "k", origin: "shop.example",
                                            maxEvents: 500)
    let tracker = Tracker(destination: destination, store: JournalStore.memory(maxBytes: 1024 * 1024 * 1024), configuration: configuration)
    let run = Task { try await tracker.run() }
    let clock = ContinuousClock()
    let start = clock.now
    for number in 0..<count { try tracker.track(clicks[number % clicks.count]) }
    while tracker.statistics.pending > 0 { try await Task.sleep(for: .milliseconds(5)) }
    let elapsed = seconds(start.duration(to: clock.now))
    let statistics = tracker.statistics
    run.cancel()
    try await run.value
    // Every event tracked must be delivered, or the figure means nothing.
    precondition(statistics.delivered == count, "delivered \(statistics.delivered) of \(count) events")
    print("delivery to 127.0.0.1 (Segmentify format, 500-event batches, 4 in flight): \(statistics.delivered) events in "
          + String(format: "%.3f s = %d events/s", elapsed, Int(Double(statistics.delivered) / elapsed)))
}

/// A count as given, or a hundredth of it in a check run (`Benchmarks/run --check`).
func scaled(_ count: Int) -> Int { ProcessInfo.processInfo.environment["RECOKIT_BENCH_CHECK"] == "1" ? max(count / 100, 16) : count }

print("RecoKit tracking benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
try await measureTrack("warm-up", durability: .memory, count: scaled(300_000), tasks: 1, target: nil, quiet: true)
try await measureTrack("track, memory, 1 task  ", durability: .memory, count: scaled(1_000_000), tasks: 1, target: 1_000_000)
try await measureTrack("track, memory, 2 tasks ", durability: .memory, count: scaled(1_000_000), tasks: 2, target: 1_000_000)
try await measureTrack("track, batched, 1 task ", durability: .batched, count: scaled(1_000_000), tasks: 1, target: 200_000)
try await measureTrack("track, batched, 2 tasks", durability: .batched, count: scaled(1_000_000), tasks: 2, target: 200_000)
try await measureTrack("track, strict, 1 task  ", durability: .strict, count: scaled(500), tasks: 1, target: nil)
try await measureTrack("track, strict, 16 tasks", durability: .strict, count: scaled(4_000), tasks: 16, target: nil)
try await measureDelivery(count: scaled(200_000))
