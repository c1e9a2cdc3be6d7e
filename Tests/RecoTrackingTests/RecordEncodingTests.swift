@testable import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoKitTesting
import RecoTracking
import RecoVendors

/// The encoders that write batches straight from journal records against the value-based encoders
/// they replace: the same bytes, on pinned batches and on seeded random events.
@Suite("Batches encoded from journal records")
struct RecordEncodingTests {
    /// Text that exercises escaping: quotes, backslashes, control characters, non-ASCII, combining marks.
    static let pieces = ["a", "Z", "0", "-", "_", "fcs_", "\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "ü", "ş", "e\u{301}",
                         "é", "😀", "/", " ", "|", "product", "{", "}", ":", ","]

    static func text(_ random: inout SeededRandom, maxPieces: Int = 12) -> String {
        (0..<Int.random(in: 0...maxPieces, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func optionalText(_ random: inout SeededRandom) -> String? {
        Bool.random(using: &random) ? text(&random) : nil
    }

    static func value(_ random: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: .string(text(&random))
        case 1: .number(JSONNumber(text: ["1", "-2.5", "1299.90", "0", "1e3"].randomElement(using: &random)!)!)
        case 2: .bool(Bool.random(using: &random))
        case 3: .null
        default: .array([.string(text(&random)), .number(JSONNumber(text: "7")!)])
        }
    }

    static func params(_ random: inout SeededRandom) -> [String: JSONValue] {
        guard Int.random(in: 0..<3, using: &random) == 0 else { return [:] }
        var params: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 1...3, using: &random) { params[["channel", "eventId", "note", "Ab", "zz", text(&random)].randomElement(using: &random)!] = value(&random) }
        return params
    }

    /// A random event of any kind, with a random id and a time anywhere from 1900 to 2200.
    static func event(_ random: inout SeededRandom, variants: [String]) -> TrackedEvent {
        let context = InteractionContext(userId: optionalText(&random), sessionId: optionalText(&random), lang: optionalText(&random),
                                         currency: optionalText(&random), pageUrl: optionalText(&random), region: optionalText(&random),
                                         testMode: [nil, true, false].randomElement(using: &random)!, os: optionalText(&random),
                                         device: optionalText(&random), params: params(&random))
        let kind = Interaction.Kind.allCases.randomElement(using: &random)!
        let instanceId = Bool.random(using: &random) ? variants.randomElement(using: &random)! : text(&random)
        let vendorEvent = kind == .vendorEvent
            ? VendorEvent(vendor: .segmentify, name: ["PAGE_VIEW", "PRODUCT_VIEW", "CUSTOM_EVENT"].randomElement(using: &random)!,
                          fields: ["category": .string(text(&random)), "params": .object(params(&random)), "price": value(&random)])
            : nil
        let occurred = Date(timeIntervalSince1970: Double(Int64.random(in: 0...253_402_300_799_999, using: &random)) / 1000)
        let interaction = Interaction(kind: kind, instanceId: instanceId, interactionId: text(&random), productId: optionalText(&random),
                                      position: Bool.random(using: &random) ? Int.random(in: 0...40, using: &random) : nil,
                                      searchPhase: [nil, .beforeSearch, .search].randomElement(using: &random)!, context: context,
                                      occurred: occurred, forcePush: Bool.random(using: &random), vendorEvent: vendorEvent)
        return TrackedEvent(id: EventID(run: random.next(), sequence: UInt64.random(in: 0...UInt64.max, using: &random) >> Int.random(in: 0...63, using: &random)),
                            interaction: interaction)
    }

    @Test func randomEventsEncodeToTheSameBytesBothWays() throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("RecordEncodingTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        for round in 0..<300 {
            let variants = (0..<3).map { _ in Self.text(&random, maxPieces: 3) }
            let events = (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.event(&random, variants: variants) }
            let records = events.map(EventRecord.init)
            // What the tracker used to send: the events as the journal gives them back.
            let journaled = try records.map { try $0.event() }
            for includeIds in [true, false] {
                let segmentify = SegmentifyEventEncoder.body(records: records, includeEventIds: includeIds)
                #expect(segmentify == SegmentifyOracle.body(journaled, includeEventIds: includeIds), "seed \(seed), round \(round)")
                let retenoRecords = records.filter { $0.kind != .vendorEvent }
                let reteno = RetenoEventEncoder.body(records: retenoRecords, includeEventIds: includeIds)
                #expect(reteno == RetenoOracle.body(try retenoRecords.map { try $0.event() }, includeEventIds: includeIds),
                        "seed \(seed), round \(round)")
            }
        }
    }

    /// A random page: a random context (escapes, params, test mode), its impressions naming a few blocks,
    /// consecutive ones often the same block (what the encoders share) and sometimes not.
    static func page(_ random: inout SeededRandom, variants: [String]) -> PageImpressions {
        let context = InteractionContext(userId: optionalText(&random), sessionId: optionalText(&random), lang: optionalText(&random),
                                         currency: optionalText(&random), pageUrl: optionalText(&random), region: optionalText(&random),
                                         testMode: [nil, true, false].randomElement(using: &random)!, os: optionalText(&random),
                                         device: optionalText(&random), params: params(&random))
        let occurred = Date(timeIntervalSince1970: Double(Int64.random(in: 0...253_402_300_799_999, using: &random)) / 1000)
        let actions = ["act_1", "", text(&random, maxPieces: 3)]
        var impressions: [PageImpressions.Impression] = []
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            if let last = impressions.last, Int.random(in: 0..<4, using: &random) > 0 {
                impressions.append(.init(instanceId: last.instanceId, interactionId: last.interactionId, productId: optionalText(&random),
                                         position: Bool.random(using: &random) ? Int.random(in: 0...40, using: &random) : nil))
            } else {
                impressions.append(.init(instanceId: variants.randomElement(using: &random)!, interactionId: actions.randomElement(using: &random)!,
                                         productId: optionalText(&random), position: nil))
            }
        }
        return PageImpressions(context: context, occurred: occurred, forcePush: Bool.random(using: &random), impressions: impressions)
    }

    @Test func randomPagesAndEventsEncodeToTheSameBytesBothWays() throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("RecordEncodingTests pages seed \(seed)")
        var random = SeededRandom(seed: seed)
        for round in 0..<150 {
            let variants = (0..<3).map { _ in Self.text(&random, maxPieces: 3) }
            var records: [EventRecord] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                if Bool.random(using: &random) {
                    let page = Self.page(&random, variants: variants)
                    let bytes = PageImpressions.journalRecord(of: page, run: random.next(), firstSequence: UInt64.random(in: 0...1 << 40, using: &random))
                    try EventRecord.read(bytes, into: &records)
                } else {
                    records.append(EventRecord(Self.event(&random, variants: variants)))
                }
            }
            // A batch may start and end inside a page.
            let start = Int.random(in: 0..<records.count, using: &random)
            let batch = Array(records[start..<Int.random(in: (start + 1)...records.count, using: &random)])
            let journaled = try batch.map { try $0.event() }
            for includeIds in [true, false] {
                #expect(SegmentifyEventEncoder.body(records: batch, includeEventIds: includeIds)
                        == SegmentifyOracle.body(journaled, includeEventIds: includeIds), "seed \(seed), round \(round)")
                let retenoRecords = batch.filter { $0.kind != .vendorEvent }
                #expect(RetenoEventEncoder.body(records: retenoRecords, includeEventIds: includeIds)
                        == RetenoOracle.body(try retenoRecords.map { try $0.event() }, includeEventIds: includeIds), "seed \(seed), round \(round)")
            }
        }
    }

    @Test func aRecordKnowsItsIdTimeAndFields() throws {
        let occurred = Date(timeIntervalSince1970: 1_714_566_896.25)
        let interaction = Interaction(kind: .click, instanceId: "rec_pdp_1", interactionId: "act_1842", productId: "240-LV09", position: 3,
                                      context: Fixtures.context, occurred: occurred)
        let record = EventRecord(TrackedEvent(id: EventID(run: 0x3F9A, sequence: 42), interaction: interaction))
        #expect(record.id == EventID(run: 0x3F9A, sequence: 42))
        #expect(record.occurredMilliseconds == 1_714_566_896_250)
        #expect(record.kind == .click)
        #expect(record.position == 3)
        #expect(record.string(record.productId) == "240-LV09")
        #expect(record.string(record.userId) == "-897541074991628287")
        #expect(record.region == nil)
        #expect(try record.event().interaction == interaction)
    }

    @Test func aTruncatedRecordIsRefusedAsDecodingRefusesIt() {
        let bytes = EventRecord(TrackedEvent(id: EventID(run: 1, sequence: 2), interaction: Fixtures.click("P"))).bytes
        for cut in [0, 1, 10, 26, bytes.count - 1] {
            #expect(throws: TrackingError.self) { try EventRecord(bytes: bytes.prefix(cut)) }
        }
    }

    @Test func pinnedBatchesComeOutTheSameFromRecords() {
        let widget = Fixtures.widget()
        let id = EventID(run: 0xABCDEF, sequence: 7)
        let records = [EventRecord(TrackedEvent(id: id, interaction: .impression(of: widget, context: Fixtures.context)))]
        let text = String(decoding: SegmentifyEventEncoder.body(records: records), as: UTF8.self)
        #expect(text == #"[{"currency":"TRY","instanceId":"rec_pdp_1","interactionId":"act_1842","lang":"TR","name":"INTERACTION","pageUrl":"https://www.shop.example/urun/240-lv09-kosu-ayakkabisi","params":{"eventId":"0000000000abcdef-7"},"sessionId":"-2739101928374651","type":"impression","userId":"-897541074991628287"}]"#)
        let clicks = [EventRecord(TrackedEvent(id: EventID(run: 0x3F9A1C2B7D4E5F60, sequence: 42),
                                               interaction: Interaction(kind: .click, instanceId: "r1107v1482", productId: "240-LV09",
                                                                        occurred: Date(timeIntervalSince1970: 1_714_566_896.9))))]
        #expect(String(decoding: RetenoEventEncoder.body(records: clicks), as: UTF8.self)
                == #"{"events":[{"clicks":[{"eventId":"3f9a1c2b7d4e5f60-42","occurred":"2024-05-01T12:34:56Z","productId":"240-LV09"}],"recomVariantId":"r1107v1482"}]}"#)
    }
}
