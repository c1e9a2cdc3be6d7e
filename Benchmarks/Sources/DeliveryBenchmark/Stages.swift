import Foundation
import RecoKit
import RecoDestinations
import RecoTracking

/// The delivery path cut into stages, each run alone on `count` events so that callgrind can count its
/// instructions (`DeliveryBenchmark stage <name> <count> [port]`). Synchronous on purpose: valgrind
/// needs a plain `main`; the tracker's own tasks still run on the cooperative pool.
enum Stage: String, CaseIterable {
    /// The benchmark's own loop alone: each click handed to a function the compiler cannot see into,
    /// which does nothing with it. Every stage that tracks includes this (copying each interaction out
    /// of the workload's array, its strings retained and released), and none of it is RecoKit's.
    case handoff
    /// `tracker.check` alone: shape and destination rules.
    case check
    /// `track` into a memory journal (check, binary record, append), every sender stalled on a request first.
    case track
    /// Reading a journaled record's layout (`EventRecord(bytes:)`, what the sender does per event).
    case readBack = "read-back"
    /// Segmentify batches of 500 written from records: the destination's `request(for:)`, its body
    /// encoded by the record encoder (internal to RecoDestinations), its URL and headers once a batch.
    case encode
    /// Reteno batches of 500 from records, the same way.
    case encodeReteno = "encode-reteno"
    /// `track`, then delivery end to end to a transport that answers 200 at once (no HTTP).
    case deliverNull = "deliver-null"
    /// `deliver-null` with the journal a server runs: files in a temporary folder, `batched` durability
    /// (callgrind counts the program's instructions, not the kernel's: the copies into and out of the
    /// files are the kernel's here, where the memory journal makes them in the program).
    case deliverFile = "deliver-file"
    /// `track`, then delivery end to end over HTTP (URLSession) to the minimal sink on `port`.
    case deliverHTTP = "deliver-http"
    /// The same through `SocketTransport` (plain keep-alive sockets): HTTP without URLSession.
    case deliverSocket = "deliver-socket"
    /// `track(_: PageImpressions)` of 24-product pages into a memory journal, per impression (senders stalled).
    case trackPage = "track-page"
    /// Reading 24-impression page records back into their events (`EventRecord.read`), per impression.
    case readBackPage = "read-back-page"
    /// Segmentify batches of 500 written from the records of 24-impression pages (as the sender reads
    /// them back), per impression.
    case encodePage = "encode-page"
    /// Reteno batches of 500 from the same page impressions' records, per impression.
    case encodeRetenoPage = "encode-reteno-page"
    /// Pages tracked, then delivered end to end to a transport that answers 200 at once, per impression.
    case deliverPageNull = "deliver-page-null"
    /// Pages tracked, then delivered end to end over HTTP to the minimal sink, per impression.
    case deliverPageHTTP = "deliver-page-http"
    /// The same through `SocketTransport`, per impression.
    case deliverPageSocket = "deliver-page-socket"

    /// Whether the stage's events are page impressions.
    var isPage: Bool {
        [.trackPage, .readBackPage, .encodePage, .encodeRetenoPage, .deliverPageNull, .deliverPageHTTP, .deliverPageSocket].contains(self)
    }
}

/// The benchmark's events: clicks on 1,000 products by one visitor, as a product page sends them.
enum Workload {
    static let context = InteractionContext(userId: "-897541074991628287", sessionId: "-2739101928374651", lang: "TR", currency: "TRY",
                                            pageUrl: "https://www.shop.example/urun/240-lv09-kosu-ayakkabisi")
    static let clicks: [Interaction] = (0..<1000).map { index in
        Interaction(kind: .click, instanceId: "rec_pdp_1", interactionId: "act_1842", productId: "\(100 + index)-LV\(index % 97)",
                    position: index % 12 + 1, context: context, occurred: Date(timeIntervalSince1970: 1_714_566_896 + Double(index)))
    }

    /// Products per page in the page workload (one block of 24 products, as a category page shows).
    static let pageSize = 24

    /// 42 pages of 24 product impressions each (the 1,000 clicks' products), as a server page journals them.
    static let pages: [PageImpressions] = stride(from: 0, to: 1000, by: pageSize).map { first in
        PageImpressions(context: context, occurred: Date(timeIntervalSince1970: 1_714_566_896 + Double(first)),
                        impressions: (0..<pageSize).map { offset in
                            let click = clicks[(first + offset) % clicks.count]
                            return PageImpressions.Impression(instanceId: "rec_cat_1", interactionId: "act_1842",
                                                              productId: click.productId, position: offset + 1)
                        })
    }

    /// Tracks pages until at least `count` impressions are journaled; how many were.
    @discardableResult
    static func trackPages(_ count: Int, into tracker: Tracker) throws -> Int {
        var tracked = 0
        var number = 0
        while tracked < count {
            tracked += try tracker.track(pages[number % pages.count]).count
            number += 1
        }
        return tracked
    }

    static func segmentify(port: Int) -> SegmentifyDestination {
        SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:\(port)")!, apiKey: "k", origin: "shop.example", maxEvents: 500)
    }

    /// The Reteno destination whose request the `encode-reteno` stages write.
    static let reteno = RetenoDestination(accessKey: "k")

    /// The workload's 1,000 events as the tracker journals them.
    static let distinctRecords: [EventRecord] = clicks.indices.map {
        EventRecord(TrackedEvent(id: EventID(run: 0x3F9A_1C2B_7D4E_5F60, sequence: UInt64($0 + 1)), interaction: clicks[$0]))
    }

    /// `count` journal records (the 1,000 repeated: copies share their bytes, so making them costs little
    /// per event next to the stage measured).
    static func records(_ count: Int) -> [EventRecord] {
        (0..<count).map { distinctRecords[$0 % distinctRecords.count] }
    }

    /// The page workload's impressions as the sender reads them back (one record each, sharing its page's bytes).
    static let pageImpressionRecords: [EventRecord] = pageRecords.flatMap { payload in
        var records: [EventRecord] = []
        try! EventRecord.read(payload, into: &records) // the codec's own output always reads back
        return records
    }

    /// `count` impressions' records (the 42 pages' repeated: copies share their bytes).
    static func pageImpressionRecords(_ count: Int) -> [EventRecord] {
        (0..<count).map { pageImpressionRecords[$0 % pageImpressionRecords.count] }
    }

    static func batches(_ records: [EventRecord]) -> [[EventRecord]] {
        stride(from: 0, to: records.count, by: 500).map { Array(records[$0..<min(records.count, $0 + 500)]) }
    }

    /// The journal's size limit, in memory or in files: far above any stage's events.
    static let maxJournalBytes = 2 * 1024 * 1024 * 1024

    /// A journal in memory, as the stages deliver from unless they say otherwise.
    static func memoryStore() -> JournalStore { JournalStore.memory(maxBytes: maxJournalBytes) }

    /// Delivery: batches go out after 20 ms at most; a stop drains for `drain`.
    static func configuration(drain: Duration = .seconds(5)) -> TrackerConfiguration {
        var configuration = TrackerConfiguration()
        configuration.flushInterval = .milliseconds(20)
        configuration.drainDeadline = drain
        return configuration
    }
}

/// A tracker and the task that runs it (`run()`), as a server runs a tracker among its services.
struct RunningTracker {
    let tracker: Tracker
    let run: Task<Void, any Error>

    /// Starts `tracker`'s run in a task of its own.
    init(_ tracker: Tracker) {
        self.tracker = tracker
        run = Task { try await tracker.run() }
    }

    /// Stops the run: cancels its task (the tracker stops taking events, drains for its
    /// `drainDeadline` and closes its store) and waits until it has ended.
    func stop() async throws {
        run.cancel()
        try await run.value
    }
}

/// Never answers until cancelled: senders hold their first batches, so `track` is measured alone.
final class StalledTransport: Transport, @unchecked Sendable {
    private let lock = NSLock()
    private var started = 0

    /// Requests sent so far (each one stalls its sender).
    var requests: Int { lock.withLock { started } }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        lock.withLock { started += 1 }
        try await Task.sleep(for: .seconds(86_400))
        throw CancellationError()
    }
}

/// A running tracker whose senders all hold a stalled request, so that what follows measures `track`
/// alone; its stop does not drain (nothing would be delivered).
func stalledTracker() throws -> RunningTracker {
    let transport = StalledTransport()
    var configuration = Workload.configuration(drain: .zero)
    configuration.maxConcurrentRequests = 4
    let running = RunningTracker(Tracker(destination: Workload.segmentify(port: 9), store: Workload.memoryStore(),
                                         configuration: configuration, transport: transport))
    for number in 0..<2_000 { try running.tracker.track(Workload.clicks[number % Workload.clicks.count]) }
    try blocking { try await running.tracker.flush() }
    while transport.requests < 4 { usleep(1_000) }
    return running
}

/// Answers 200 at once without looking at the request: delivery without HTTP.
struct NullTransport: Transport {
    static let success = VendorReply(status: 200, body: Data(#"{"statusCode":"SUCCESS"}"#.utf8))
    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply { Self.success }
}

/// Runs an async body from synchronous code (the benchmark's `main` stays synchronous for valgrind).
func blocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<Result<Value, any Error>>()
    Task {
        do { box.value = .success(try await body()) } catch { box.value = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.value!.get()
}

final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}

/// What the `handoff` stage hands each click to: set at run time, so the compiler cannot see that it does
/// nothing, and passes each interaction as it passes one to `track`.
nonisolated(unsafe) var handOff: (Interaction) -> Void = { _ in }

/// Keeps a value alive and opaque to the optimizer.
@inline(never) func consume<T>(_ value: T) { withExtendedLifetime(value) {} }

extension Stage {
    /// Runs the stage on `count` events.
    func run(count: Int, port: Int) throws {
        switch self {
        case .handoff:
            let take = handOff
            for number in 0..<count { take(Workload.clicks[number % Workload.clicks.count]) }
        case .check:
            let running = try stalledTracker()
            for number in 0..<count { try running.tracker.check(Workload.clicks[number % Workload.clicks.count]) }
            try blocking { try await running.stop() }
        case .track:
            let running = try stalledTracker()
            for number in 0..<count { try running.tracker.track(Workload.clicks[number % Workload.clicks.count]) }
            try blocking { try await running.stop() }
        case .readBack:
            let payloads = Workload.records(count).map(\.bytes)
            for payload in payloads { consume(try EventRecord(bytes: payload)) }
        case .encode:
            let segmentify = Workload.segmentify(port: port)
            for batch in Workload.batches(Workload.records(count)) { consume(segmentify.request(for: batch)) }
        case .encodePage:
            let segmentify = Workload.segmentify(port: port)
            for batch in Workload.batches(Workload.pageImpressionRecords(count)) { consume(segmentify.request(for: batch)) }
        case .encodeRetenoPage:
            for batch in Workload.batches(Workload.pageImpressionRecords(count)) { consume(Workload.reteno.request(for: batch)) }
        case .encodeReteno:
            for batch in Workload.batches(Workload.records(count)) { consume(Workload.reteno.request(for: batch)) }
        case .deliverFile:
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("recokit-deliver-file-\(getpid())")
            try? FileManager.default.removeItem(at: folder)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try JournalStore(directory: folder, durability: .batched, maxBytes: Workload.maxJournalBytes)
            let (tracked, delivered) = try deliver(count: count, port: port, transport: NullTransport(), store: store)
            guard delivered == tracked else { throw TrackingError.configuration("delivered \(delivered) of \(tracked) events") }
        case .deliverNull, .deliverHTTP, .deliverSocket, .deliverPageNull, .deliverPageHTTP, .deliverPageSocket:
            let transport: any Transport = switch self {
            case .deliverNull, .deliverPageNull: NullTransport()
            case .deliverSocket, .deliverPageSocket: SocketTransport(port: port)
            default: URLSessionTransport(connectionsPerHost: 4)
            }
            let (tracked, delivered) = try deliver(count: count, port: port, transport: transport, pages: isPage)
            guard delivered == tracked else { throw TrackingError.configuration("delivered \(delivered) of \(tracked) events") }
        case .trackPage:
            let running = try stalledTracker()
            try Workload.trackPages(count, into: running.tracker)
            try blocking { try await running.stop() }
        case .readBackPage:
            let payloads = (0..<(count + Workload.pageSize - 1) / Workload.pageSize).map { pageRecords[$0 % pageRecords.count] }
            var records: [EventRecord] = []
            records.reserveCapacity(Workload.pageSize)
            for payload in payloads {
                records.removeAll(keepingCapacity: true)
                try EventRecord.read(payload, into: &records)
                consume(records)
            }
        }
    }
}

/// Tracks `count` events (single clicks, or 24-impression pages until at least `count`) into a running
/// tracker over `store` (memory unless given), waits until all are delivered, and stops the run (it
/// drains for 5 s at most, finding nothing left); how many were tracked and delivered.
func deliver(count: Int, port: Int, transport: any Transport, pages: Bool = false,
             store: JournalStore = Workload.memoryStore()) throws -> (tracked: Int, delivered: Int) {
    let running = RunningTracker(Tracker(destination: Workload.segmentify(port: port), store: store,
                                         configuration: Workload.configuration(drain: .seconds(5)), transport: transport))
    let tracker = running.tracker
    var tracked = count
    if pages {
        tracked = try Workload.trackPages(count, into: tracker)
    } else {
        for number in 0..<count { try tracker.track(Workload.clicks[number % Workload.clicks.count]) }
    }
    let delivered = try blocking {
        try await tracker.flush()
        await tracker.waitUntilIdle(timeout: .seconds(120))
        try await running.stop()
        return tracker.statistics.delivered
    }
    return (tracked, delivered)
}

/// The page workload's records as the journal holds them (captured from a tracker's requests would cost
/// more; these are what `track(_: PageImpressions)` appends, numbered from 1).
let pageRecords: [ArraySlice<UInt8>] = Workload.pages.map { PageImpressions.journalRecord(of: $0, run: 0x3F9A_1C2B_7D4E_5F60) }
