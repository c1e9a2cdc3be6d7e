// DeliveryBenchmark: what delivering a tracked event costs, stage by stage, and how fast events reach a
// minimal HTTP sink written in C (Benchmarks/Sink/sink.c), side by side with writing the same bytes to it.
//
//   DeliveryBenchmark                              the report (callgrind per stage when valgrind is
//                                                  installed, then delivered events/s, interleaved rounds)
//   DeliveryBenchmark stage <name> <count> [port]  one stage alone (what callgrind runs)
//
// Instructions per event come from two callgrind runs of a stage, on N and 3N events: (Ir(3N) - Ir(N)) / 2N,
// so start-up and setup cancel out. `main` is synchronous on purpose: valgrind needs a plain `main`.
import BenchmarkSupport
import Foundation
import RecoTracking

let arguments = CommandLine.arguments
// Never true: `handOff` may then be another function, as far as the compiler can tell, so the `handoff`
// stage calls it as `track` is called (an interaction passed to code it cannot see into).
if arguments.count > 9 { handOff = { print($0.kind) } }
if arguments.count >= 4, arguments[1] == "stage" {
    guard let stage = Stage(rawValue: arguments[2]), let count = Int(arguments[3]) else {
        FileHandle.standardError.write(Data("usage: DeliveryBenchmark stage <\(Stage.allCases.map(\.rawValue).joined(separator: "|"))> <count> [port]\n".utf8))
        exit(2)
    }
    do { try stage.run(count: count, port: arguments.count > 4 ? Int(arguments[4]) ?? 9 : 9) } catch {
        FileHandle.standardError.write(Data("stage \(stage.rawValue) failed: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

let targetInstructions = 5_000.0
let targetRate = 1_000_000.0
/// Reference figures of main before the delivery work of issue 12 (a1fb963), measured with this benchmark's
/// stages built against it (same workload, same method). `track` has none: under callgrind its count
/// moves with how the tracker's threads are scheduled (7,500-9,900 on main, 7,300-7,700 now, in repeated
/// runs), so compare it in one run. The encoders have none either: their old path (records decoded into
/// `TrackedEvent`s, then a String encoder) is no longer in RecoKit's sources (it is a test oracle now).
let before: [Stage: Double] = [.deliverNull: 61_752, .deliverHTTP: 63_318]
let beforeRate = 177_881.0

print("RecoKit delivery benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
let sink = try Sink()
defer { sink.stop() }

/// Callgrind's instruction count for one run of a stage, or nil when valgrind is missing or fails.
func instructions(_ stage: Stage, count: Int, port: Int) -> Double? {
    let output = NSTemporaryDirectory() + "/recokit-callgrind-\(getpid())-\(stage.rawValue)-\(count).out"
    defer { try? FileManager.default.removeItem(atPath: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(output)", CommandLine.arguments[0],
                         "stage", stage.rawValue, "\(count)", "\(port)"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    guard process.terminationStatus == 0, let text = try? String(contentsOfFile: output, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
        if let number = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return number }
    }
    return nil
}

let hasValgrind = Process.succeeds("/usr/bin/env", ["valgrind", "--version"])
var perEvent: [Stage: Double] = [:]
if hasValgrind {
    let small = Int(ProcessInfo.processInfo.environment["RECOKIT_CALLGRIND_EVENTS"] ?? "") ?? 2_000
    print("\ninstructions per event (callgrind, (Ir(\(3 * small)) - Ir(\(small))) / \(2 * small) events; 500-event batches)")
    var table = Table("stage", "Ir/event", "before", "before/now")
    for stage in Stage.allCases where !stage.isPage {
        guard let one = instructions(stage, count: small, port: sink.port), let three = instructions(stage, count: 3 * small, port: sink.port) else {
            table.add(stage.rawValue, "failed", "", "")
            continue
        }
        let figure = (three - one) / Double(2 * small)
        perEvent[stage] = figure
        let earlier = before[stage]
        let old = earlier.map { format($0, decimals: 0) } ?? ""
        let ratio = earlier.map { format($0 / figure, decimals: 1) + "x" } ?? ""
        table.add(stage.rawValue, format(figure, decimals: 0), old, ratio)
    }
    table.print()
    print("before: deliver-null and deliver-http as measured on main a1fb963 with the same stages")
    print("encode and encode-reteno: from records only, through each destination's request(for:) (its URL and headers once")
    print("        a 500-event batch); the old path (decode into events + String encoder) is a test oracle now, not measured")
    if let total = perEvent[.deliverHTTP] {
        print("end to end (track + delivery over HTTP): \(format(total, decimals: 0)) Ir/event; target at most \(Int(targetInstructions)): "
              + "ratio \(format(total / targetInstructions, decimals: 2)) (\(verdict(total <= targetInstructions)))")
    }
    if let track = perEvent[.track], let null = perEvent[.deliverNull], let http = perEvent[.deliverHTTP] {
        print("split: track \(format(track, decimals: 0)), journal read-back + encode + sender loop \(format(null - track, decimals: 0)), "
              + "HTTP (URLSession) \(format(http - null, decimals: 0)) Ir/event")
    }
    if let handoff = perEvent[.handoff], let null = perEvent[.deliverNull], let http = perEvent[.deliverHTTP] {
        print("of which the benchmark's own (handoff: copying each interaction out of its array to pass it to track): "
              + "\(format(handoff, decimals: 0)) Ir/event; RecoKit's own end to end \(format(null - handoff, decimals: 0)) without HTTP, "
              + "\(format(http - handoff, decimals: 0)) over URLSession")
    }
    if let null = perEvent[.deliverNull], let file = perEvent[.deliverFile] {
        print("with a file journal (batched), as a server runs it (deliver-file): \(format(file, decimals: 0)) Ir/event in the program, "
              + "against \(format(null, decimals: 0)) with the memory journal (whose copies the kernel makes for a file journal)")
    }
    if let null = perEvent[.deliverNull], let socket = perEvent[.deliverSocket] {
        print("HTTP over plain sockets (deliver-socket): \(format(socket, decimals: 0)) Ir/event end to end, of which the transport "
              + "\(format(socket - null, decimals: 0))")
    }
    // The same stages for a page's impressions journaled as one record (24 products a page), per impression.
    print("\nsingle events vs page impressions (one record per \(Workload.pageSize)-product page), Ir per event, same run")
    var pages = Table("stage", "single event", "page impression", "single/page")
    let pairs: [(String, Stage, Stage)] = [("track", .track, .trackPage), ("read-back", .readBack, .readBackPage), ("encode", .encode, .encodePage),
                                          ("encode-reteno", .encodeReteno, .encodeRetenoPage),
                                          ("deliver-null", .deliverNull, .deliverPageNull), ("deliver-http", .deliverHTTP, .deliverPageHTTP),
                                          ("deliver-socket", .deliverSocket, .deliverPageSocket)]
    for (name, single, page) in pairs {
        if perEvent[page] == nil, let one = instructions(page, count: small, port: sink.port),
           let three = instructions(page, count: 3 * small, port: sink.port) {
            perEvent[page] = (three - one) / Double(2 * small)
        }
        let left = perEvent[single].map { format($0, decimals: 0) } ?? "failed"
        let right = perEvent[page].map { format($0, decimals: 0) } ?? "failed"
        let ratio = perEvent[single].flatMap { a in perEvent[page].map { format(a / $0, decimals: 1) + "x" } } ?? ""
        pages.add(name, left, right, ratio)
    }
    pages.print()
    if let total = perEvent[.deliverPageHTTP] {
        print("end to end for page impressions: \(format(total, decimals: 0)) Ir/event; target at most \(Int(targetInstructions)): "
              + "ratio \(format(total / targetInstructions, decimals: 2)) (\(verdict(total <= targetInstructions)))")
    }
} else {
    print("\ninstructions per event: SKIPPED (valgrind is not installed; Benchmarks/run installs it with apt-get when it can)")
}

// Wall clock: events tracked and delivered to the sink, against writing the same bytes to it directly.
let events = Int(ProcessInfo.processInfo.environment["RECOKIT_DELIVERY_EVENTS"] ?? "") ?? 200_000
let requests = Workload.batches(Workload.records(events)).map {
    httpRequest(body: Workload.segmentify(port: sink.port).request(for: $0).body, port: sink.port)
}
/// The paths timed, in the order of a round (each round starts one further along).
enum RatePath: CaseIterable { case single, pages, singleSocket, pagesSocket, write }
var best: [RatePath: Double] = [:]
for round in 0..<3 {
    for step in 0..<RatePath.allCases.count {
        let path = RatePath.allCases[(round + step) % RatePath.allCases.count]
        let start = DispatchTime.now().uptimeNanoseconds
        var count = events
        if path == .write {
            try writeRequests(requests, port: sink.port, connections: 4)
        } else {
            let sockets = path == .singleSocket || path == .pagesSocket
            let transport: any Transport = sockets ? SocketTransport(port: sink.port) : URLSessionTransport(connectionsPerHost: 4)
            let (tracked, delivered) = try deliver(count: events, port: sink.port, transport: transport, pages: path == .pages || path == .pagesSocket)
            guard delivered == tracked else { throw SinkError("delivered \(delivered) of \(tracked) events") }
            count = tracked
        }
        best[path] = max(best[path] ?? 0, Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
    }
}
print("\nevents/s to the C sink (\(events) events, 500-event batches, 4 connections; best of 3 interleaved rounds)")
var rates = Table("path", "events/s", "vs target 1,000,000/s")
let labels: [(RatePath, String)] = [
    (.single, "track + deliver (Tracker, URLSession)"), (.pages, "track pages of \(Workload.pageSize) impressions + deliver (URLSession)"),
    (.singleSocket, "track + deliver (Tracker, plain sockets)"), (.pagesSocket, "track pages + deliver (plain sockets)"),
    (.write, "write the same request bytes (sockets)"),
]
for (path, label) in labels {
    let rate = best[path] ?? 0
    rates.add(label, format(rate, decimals: 0), format(rate / targetRate, decimals: 2))
}
rates.add("main a1fb963, track + deliver (reference)", format(beforeRate, decimals: 0), format(beforeRate / targetRate, decimals: 2))
rates.print()
let written = best[.write] ?? 1
print("delivery over URLSession runs at \(format((best[.single] ?? 0) / written, decimals: 2)) (single events) and "
      + "\(format((best[.pages] ?? 0) / written, decimals: 2)) (page impressions) of writing the same bytes; target 1,000,000 events/s end to end: "
      + "single \(verdict((best[.single] ?? 0) >= targetRate)), pages \(verdict((best[.pages] ?? 0) >= targetRate)); over plain sockets: single "
      + "\(verdict((best[.singleSocket] ?? 0) >= targetRate)), pages \(verdict((best[.pagesSocket] ?? 0) >= targetRate))")

extension Process {
    /// Whether the command runs and exits 0.
    static func succeeds(_ path: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
