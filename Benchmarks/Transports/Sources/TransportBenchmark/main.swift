// TransportBenchmark PORT [EVENTS]: events tracked and delivered per second to the C sink listening on PORT
// (Benchmarks/Sink/sink.c), through AsyncHTTPClient and through URLSession, single clicks and pages of 24
// impressions, best of 3 interleaved rounds. The workload is the delivery benchmark's (DeliveryBenchmark's
// `Workload`): 1,000 clicks of one visitor, 42 pages of 24 impressions.
import AsyncHTTPClient
import Foundation
import NIOCore
import RecoDestinations
import RecoKit
import RecoTracking

/// RecoKit's `Transport` over AsyncHTTPClient, as a server would write it (the storefront's has a reply cap too).
struct AsyncHTTPClientTransport: Transport {
    let client: HTTPClient
    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        var http = HTTPClientRequest(url: request.url.absoluteString)
        http.method = .RAW(value: request.method)
        for header in request.headers { http.headers.add(name: header.name, value: header.value) }
        if !request.body.isEmpty { http.body = .bytes(ByteBuffer(bytes: request.body)) }
        let (seconds, attoseconds) = timeout.components
        let response = try await client.execute(http, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        let body = try await response.body.collect(upTo: 1 << 20)
        return VendorReply(status: Int(response.status.code), body: Data(body.readableBytesView))
    }
}

guard CommandLine.arguments.count >= 2, let port = Int(CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: TransportBenchmark PORT [EVENTS]\n".utf8))
    exit(2)
}
let events = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 200_000 : 200_000
let context = InteractionContext(userId: "-897541074991628287", sessionId: "-2739101928374651", lang: "TR", currency: "TRY",
                                 pageUrl: "https://www.shop.example/urun/240-lv09-kosu-ayakkabisi")
let clicks: [Interaction] = (0..<1000).map { index in
    Interaction(kind: .click, instanceId: "rec_pdp_1", interactionId: "act_1842", productId: "\(100 + index)-LV\(index % 97)",
                position: index % 12 + 1, context: context, occurred: Date(timeIntervalSince1970: 1_714_566_896 + Double(index)))
}
let pages: [PageImpressions] = stride(from: 0, to: 1000, by: 24).map { first in
    PageImpressions(context: context, occurred: Date(timeIntervalSince1970: 1_714_566_896 + Double(first)),
                    impressions: (0..<24).map { offset in
                        PageImpressions.Impression(instanceId: "rec_cat_1", interactionId: "act_1842",
                                                   productId: clicks[(first + offset) % 1000].productId, position: offset + 1)
                    })
}
var configuration = HTTPClient.Configuration()
configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 4
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

/// Tracks `events` clicks (or pages until that many impressions) into a running memory tracker, waits until
/// all are delivered, stops the run, and returns the events per second.
func run(_ transport: any Transport, pagesMode: Bool) async throws -> Double {
    var tc = TrackerConfiguration()
    tc.flushInterval = .milliseconds(20)
    tc.drainDeadline = .seconds(5)
    let destination = SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:\(port)")!, apiKey: "k", origin: "shop.example", maxEvents: 500)
    let start = DispatchTime.now().uptimeNanoseconds
    let tracker = Tracker(destination: destination, store: JournalStore.memory(maxBytes: 2 * 1024 * 1024 * 1024), configuration: tc,
                          transport: transport)
    let running = Task { try await tracker.run() }
    var tracked = 0
    if pagesMode {
        var n = 0
        while tracked < events { tracked += try tracker.track(pages[n % pages.count]).count; n += 1 }
    } else {
        for n in 0..<events { try tracker.track(clicks[n % 1000]) }
        tracked = events
    }
    try await tracker.flush()
    await tracker.waitUntilIdle(timeout: .seconds(120))
    running.cancel()
    try await running.value
    let delivered = tracker.statistics.delivered
    precondition(delivered == tracked, "delivered \(delivered) of \(tracked)")
    return Double(tracked) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

print("events/s to the C sink (\(events) events, 500-event batches, 4 connections; best of 3 interleaved rounds)")
let names = ["single events, AsyncHTTPClient", "page impressions, AsyncHTTPClient", "single events, URLSession", "page impressions, URLSession"]
var best: [String: Double] = [:]
for round in 0..<3 {
    for step in 0..<4 {
        let which = (round + step) % 4
        let name = names[which]
        let transport: any Transport = which < 2 ? AsyncHTTPClientTransport(client: client) : URLSessionTransport(connectionsPerHost: 4)
        let rate = try await run(transport, pagesMode: which % 2 == 1)
        best[name] = max(best[name] ?? 0, rate)
    }
}
for name in names {
    let rate = best[name] ?? 0
    print("  \(name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(Int(rate)) (\(String(format: "%.2f", rate / 1_000_000)) of the 1,000,000/s target)")
}
try await client.shutdown().get()
