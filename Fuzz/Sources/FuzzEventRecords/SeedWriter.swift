import Foundation
import FuzzSupport
import RecoKit
import RecoTracking

/// Writes the seed corpus (Fuzz/Corpus/FuzzEventRecords/) when `FUZZ_WRITE_SEEDS` names a directory, then
/// exits: records as a tracker journals them, one of each kind of event and pages of impressions, so that
/// the fuzzer starts from payloads that read.
///
///     FUZZ_WRITE_SEEDS=Fuzz/Corpus/FuzzEventRecords "$(swift build -c release -Xswiftc -sanitize=fuzzer,address \
///         --show-bin-path)/FuzzEventRecords" -runs=0
@_cdecl("LLVMFuzzerInitialize")
public func writeSeedsIfAsked(_ argc: UnsafeMutablePointer<CInt>?,
                              _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    writeCorpusIfAsked(target: "FuzzEventRecords") { seeds().map { ($0, Array($1)) } }
}

private func seeds() -> [(String, ArraySlice<UInt8>)] {
    let occurred = Date(timeIntervalSince1970: 1_714_566_896.123)
    let context = InteractionContext(userId: "-897541074991628287", sessionId: "-2739101928374651", lang: "TR", currency: "TRY",
                                     pageUrl: "https://www.shop.example/urun/240-lv09?q=\"koşu\"", region: "34", testMode: true,
                                     os: "iOS", device: "mobile", params: ["campaign": "winter", "n": 3])
    let plain = InteractionContext(userId: "u1", sessionId: "s1")
    func record(_ interaction: Interaction, _ sequence: UInt64) -> ArraySlice<UInt8> {
        EventRecord(TrackedEvent(id: EventID(run: 0x3F9A_1C2B_7D4E_5F60, sequence: sequence), interaction: interaction)).bytes
    }
    let interactions: [(String, Interaction)] = [
        ("click", Interaction(kind: .click, instanceId: "scn_60a7", interactionId: "act_15f2", productId: "240-LV09", position: 3,
                              context: context, occurred: occurred, forcePush: true)),
        ("impression", Interaction(kind: .impression, instanceId: "r1107v1482", interactionId: "act_1", productId: "557-TR02",
                                   context: plain, occurred: occurred)),
        ("widget-view", Interaction(kind: .widgetView, instanceId: "scn_60a7", interactionId: "act_15f2", context: context, occurred: occurred)),
        ("search-before", Interaction(kind: .searchClick, instanceId: "", productId: "p\u{0}\n\t\\", position: 1,
                                      searchPhase: .beforeSearch, context: plain, occurred: occurred)),
        ("search-after", Interaction(kind: .searchClick, instanceId: "", productId: "ürün ✓", searchPhase: .search, context: context,
                                     occurred: Date(timeIntervalSince1970: -1))),
        ("vendor-event", .vendorEvent(VendorEvent(vendor: "segmentify", name: "PAGE_VIEW", fields: ["category": "Shoes", "pageUrl": "/c/1"]),
                                      context: context, occurred: occurred)),
    ]
    var seeds = interactions.enumerated().map { ("\($1.0).record", record($1.1, UInt64($0 + 1))) }
    let impressions = (0..<24).map { PageImpressions.Impression(instanceId: $0 < 12 ? "scn_cat" : "r2001v7", interactionId: "act_9",
                                                                productId: "\(100 + $0)-LV\($0)", position: $0 % 5 == 4 ? nil : $0 + 1) }
    seeds.append(("page-24.record", PageImpressions.journalRecord(of: PageImpressions(context: context, occurred: occurred, impressions: impressions),
                                                                   run: 7, firstSequence: 100)))
    seeds.append(("page-1.record", PageImpressions.journalRecord(of: PageImpressions(context: plain, occurred: occurred, forcePush: true,
                                                                                      impressions: [impressions[0]]), run: 7)))
    return seeds
}
