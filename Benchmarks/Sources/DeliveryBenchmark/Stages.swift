import Foundation
import RecoKit
import RecoTracking
import RecoVendors

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
    /// The old path: each record decoded into a `TrackedEvent`, then the value encoder (Segmentify).
    case encodeOld = "encode-old"
    /// Segmentify batches of 500 written from records (the new path).
    case encode
    /// The old path for Reteno.
    case encodeRetenoOld = "encode-reteno-old"
    /// Reteno batches of 500 from records.
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

    static func memoryConfiguration() -> TrackerConfiguration {
        var configuration = TrackerConfiguration(journal: nil, durability: .memory)
        configuration.maxJournalBytes = 2 * 1024 * 1024 * 1024
        configuration.flushInterval = .milliseconds(20)
        return configuration
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

/// A tracker whose senders all hold a stalled request, so that what follows measures `track` alone.
func stalledTracker() throws -> Tracker {
    let transport = StalledTransport()
    var configuration = Workload.memoryConfiguration()
    configuration.maxConcurrentRequests = 4
    let tracker = try Tracker(destination: Workload.segmentify(port: 9), configuration: configuration, transport: transport)
    for number in 0..<2_000 { try tracker.track(Workload.clicks[number % Workload.clicks.count]) }
    try tracker.flush()
    while transport.requests < 4 { usleep(1_000) }
    return tracker
}

/// Answers 200 at once without looking at the request: delivery without HTTP.
struct NullTransport: Transport {
    static let success = VendorReply(status: 200, body: Data(#"{"statusCode":"SUCCESS"}"#.utf8))
    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply { Self.success }
}

/// Runs an async body from synchronous code (the benchmark's `main` stays synchronous for valgrind).
func blocking<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<Result>()
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
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
            let tracker = try stalledTracker()
            for number in 0..<count { try tracker.check(Workload.clicks[number % Workload.clicks.count]) }
            _ = blocking { await tracker.shutdown(deadline: .zero) }
        case .track:
            let tracker = try stalledTracker()
            for number in 0..<count { try tracker.track(Workload.clicks[number % Workload.clicks.count]) }
            _ = blocking { await tracker.shutdown(deadline: .zero) }
        case .readBack:
            let payloads = Workload.records(count).map(\.bytes)
            for payload in payloads { consume(try EventRecord(bytes: payload)) }
        case .encode:
            for batch in Workload.batches(Workload.records(count)) { consume(SegmentifyEventEncoder.body(records: batch)) }
        case .encodePage:
            for batch in Workload.batches(Workload.pageImpressionRecords(count)) { consume(SegmentifyEventEncoder.body(records: batch)) }
        case .encodeRetenoPage:
            for batch in Workload.batches(Workload.pageImpressionRecords(count)) { consume(RetenoEventEncoder.body(records: batch)) }
        case .encodeOld:
            for batch in Workload.batches(Workload.records(count)) {
                consume(SegmentifyEventEncoder.body(try batch.map { try $0.event() }))
            }
        case .encodeReteno:
            for batch in Workload.batches(Workload.records(count)) { consume(RetenoEventEncoder.body(records: batch)) }
        case .encodeRetenoOld:
            for batch in Workload.batches(Workload.records(count)) { consume(RetenoEventEncoder.body(try batch.map { try $0.event() })) }
        case .deliverFile:
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("recokit-deliver-file-\(getpid())")
            try? FileManager.default.removeItem(at: folder)
            defer { try? FileManager.default.removeItem(at: folder) }
            var configuration = Workload.memoryConfiguration()
            configuration.journal = folder
            configuration.durability = .batched
            let (tracked, delivered) = try deliver(count: count, port: port, transport: NullTransport(), configuration: configuration)
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
            let tracker = try stalledTracker()
            try Workload.trackPages(count, into: tracker)
            _ = blocking { await tracker.shutdown(deadline: .zero) }
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

/// Tracks `count` events (single clicks, or 24-impression pages until at least `count`) into a memory
/// tracker and waits until all are delivered; how many were tracked and delivered.
func deliver(count: Int, port: Int, transport: any Transport, pages: Bool = false,
             configuration: TrackerConfiguration = Workload.memoryConfiguration()) throws -> (tracked: Int, delivered: Int) {
    let tracker = try Tracker(destination: Workload.segmentify(port: port), configuration: configuration, transport: transport)
    var tracked = count
    if pages {
        tracked = try Workload.trackPages(count, into: tracker)
    } else {
        for number in 0..<count { try tracker.track(Workload.clicks[number % Workload.clicks.count]) }
    }
    try tracker.flush()
    let delivered = blocking {
        await tracker.waitUntilIdle(timeout: .seconds(120))
        return await tracker.shutdown(deadline: .seconds(5)).delivered
    }
    return (tracked, delivered)
}

/// The page workload's records as the journal holds them (captured from a tracker's requests would cost
/// more; these are what `track(_: PageImpressions)` appends, numbered from 1).
let pageRecords: [ArraySlice<UInt8>] = Workload.pages.map { PageImpressions.journalRecord(of: $0, run: 0x3F9A_1C2B_7D4E_5F60) }
