@testable import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoVendors
@testable import RecoTracking

@Suite("Page impressions: one journal record, one event per impression")
struct PageImpressionsTests {
    static let occurred = Date(timeIntervalSince1970: 1_714_566_896.123)

    /// A page with a block impression and the products of a 24-product block.
    static func page(productIds: [String] = (1...24).map { "\(200 + $0)-LV\($0)" }, context: InteractionContext = Fixtures.context) -> PageImpressions {
        var page = PageImpressions(context: context, occurred: occurred)
        page.addBlock(Fixtures.widget(instanceId: "rec_home_1", interactionId: "act_7"))
        page.addProducts(of: Fixtures.widget(vendor: .reteno, instanceId: "variant_42", interactionId: "", productIds: productIds))
        return page
    }

    @Test func aPageRecordReadsBackAsItsImpressionsWithConsecutiveIds() throws {
        var context = Fixtures.context
        context.testMode = true
        context.params = ["campaign": .string("spring")]
        let page = Self.page(context: context)
        var bytes = PageRecordCodec.encode(page, run: 0xABCD, firstSequence: 0)
        for index in 0..<8 { bytes[9 + index] = UInt8(truncatingIfNeeded: UInt64(40) >> UInt64(index * 8)) }
        var records: [EventRecord] = []
        try EventRecord.read(bytes[...], into: &records)
        #expect(records.count == 25)
        #expect(records.map(\.id.sequence) == Array(40..<65))
        for (index, record) in records.enumerated() {
            let expected = TrackedEvent(id: EventID(run: 0xABCD, sequence: UInt64(40 + index)), interaction: page.interaction(index))
            #expect(try record.event() == expected)
            // Dead letters keep the impression alone, as an event's record of the same id.
            #expect(try EventRecord(bytes: record.standaloneBytes()).event() == expected)
            #expect(record.ownByteCount < bytes.count)
        }
    }

    @Test func vendorBodiesFromAPageRecordEqualThoseFromEventRecords() throws {
        let page = Self.page()
        var bytes = PageRecordCodec.encode(page, run: 7, firstSequence: 0)
        bytes[9] = 1
        var records: [EventRecord] = []
        try EventRecord.read(bytes[...], into: &records)
        let single = try records.map { try EventRecord($0.event()) }
        #expect(SegmentifyEventEncoder.body(records: records) == SegmentifyEventEncoder.body(records: single))
        #expect(RetenoEventEncoder.body(records: records) == RetenoEventEncoder.body(records: single))
    }

    @Test func aDamagedPageRecordIsRefusedWhole() throws {
        let bytes = PageRecordCodec.encode(Self.page(), run: 7, firstSequence: 0)
        for cut in [28, bytes.count / 2, bytes.count - 1] {
            var records: [EventRecord] = [EventRecord(TrackedEvent(id: EventID(run: 1, sequence: 1), interaction: Fixtures.click("P")))]
            #expect(throws: TrackingError.self) { try EventRecord.read(bytes[..<cut], into: &records) }
            #expect(records.count == 1, "cut at \(cut)")
        }
        var extra = bytes
        extra.append(0)
        var records: [EventRecord] = []
        #expect(throws: TrackingError.self) { try EventRecord.read(extra[...], into: &records) }
        #expect(throws: TrackingError.self) { try EventRecord(bytes: bytes[...]) }
    }

    static func tracker(_ transport: any Transport, destination: any TrackingDestination = CountingDestination()) throws -> Tracker {
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.maxConcurrentRequests = 1
        configuration.flushInterval = .milliseconds(1)
        configuration.idlePollInterval = .milliseconds(1)
        return try Tracker(destination: destination, configuration: configuration, transport: transport, clock: TestClock())
    }

    @Test func everyImpressionIsDeliveredWithItsOwnIdInRequestsOfTheDestinationsSize() async throws {
        let transport = ScriptedTransport([])
        let tracker = try Self.tracker(transport)
        let click = try tracker.track(Fixtures.click("P-1"))
        var ids: [EventID] = [click]
        for _ in 0..<5 { ids += try tracker.track(Self.page()) }
        #expect(ids.count == 1 + 5 * 25)
        #expect(ids.map(\.sequence) == Array(1...126))
        try await tracker.flush()
        await tracker.waitUntilDelivered()
        _ = await tracker.shutdown(deadline: .seconds(1))
        let sent = transport.requests.map { String(decoding: $0.body, as: UTF8.self).split(separator: "\n").map(String.init) }
        #expect(sent.allSatisfy { $0.count <= 100 })
        #expect(sent.flatMap { $0 } == ids.map(\.description))
        #expect(tracker.statistics.delivered == 126)
        #expect(tracker.statistics.accepted == 126)
    }

    @Test func aRejectedImpressionIsFoundByBisectionAndDeadLetteredAlone() async throws {
        let transport = RejectingTransport()
        let tracker = try Self.tracker(transport)
        // Set before tracking, so the first request already holds it: the 18th id of the run.
        transport.rejected = EventID(run: tracker.idRun, sequence: 18).description
        let ids = try tracker.track(Self.page())
        #expect(ids[17].description == transport.rejected)
        try await tracker.flush()
        await tracker.waitUntilDelivered()
        _ = await tracker.shutdown(deadline: .seconds(1))
        #expect(tracker.statistics.delivered == 24)
        let letters = try await tracker.deadLetters()
        #expect(letters.map(\.event.id) == [ids[17]])
        #expect(letters.first?.event.interaction == Self.page().interaction(17))
    }

    @Test func aPageWithAnInvalidImpressionJournalsNothing() async throws {
        let transport = ScriptedTransport([])
        let tracker = try Self.tracker(transport, destination: SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:9")!,
                                                                                       apiKey: "k", origin: "shop.example"))
        var context = Fixtures.context
        context.userId = nil
        #expect(throws: TrackingError.self) { try tracker.track(Self.page(context: context)) }
        #expect(try tracker.track(PageImpressions(context: Fixtures.context)).isEmpty)
        #expect(tracker.statistics.pending == 0)
        #expect(tracker.statistics.accepted == 0)
        _ = await tracker.shutdown(deadline: .seconds(1))
        #expect(transport.requests.isEmpty)
    }
}

/// Answers 422 to any request whose body holds the rejected id (a line of ``CountingDestination``'s body), 200 otherwise.
final class RejectingTransport: Transport, @unchecked Sendable {
    private let lock = NSLock()
    private var id = ""

    var rejected: String {
        get { lock.withLock { id } }
        set { lock.withLock { id = newValue } }
    }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        let lines = String(decoding: request.body, as: UTF8.self).split(separator: "\n")
        if lines.contains(where: { $0 == rejected }) { return VendorReply(status: 422, body: Data("unknown product".utf8)) }
        return VendorReply(status: 200)
    }
}
