import Foundation
import Testing
import RecoKit
@testable import RecoTracking

@Suite("Vendor events in the journal")
struct VendorEventCodecTests {
    let pageView = VendorEvent(vendor: .segmentify, name: "PAGE_VIEW",
                               fields: ["category": "Category Page", "subCategory": "Men>Shoes>Sports"])

    @Test func aVendorEventRoundTripsWithItsFieldsAndContext() throws {
        let interaction = Interaction.vendorEvent(pageView, context: Fixtures.context,
                                                  occurred: Date(timeIntervalSince1970: 1_714_566_896.25))
        let event = TrackedEvent(id: EventID(run: 0xBEEF, sequence: 12), interaction: interaction)
        let bytes = EventCodec.encode(event)
        #expect(bytes.first == 2)
        let decoded = try EventCodec.decode(bytes[...])
        #expect(decoded == event)
        #expect(decoded.interaction.vendorEvent?.fields["subCategory"]?.stringValue == "Men>Shoes>Sports")
        #expect(decoded.interaction.kind == .vendorEvent)
    }

    /// A record of version 1, byte for byte as the codec wrote it before vendor events existed.
    @Test func aVersionOneRecordIsStillRead() throws {
        var record: [UInt8] = [1]
        func fixed(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { record.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
        func string(_ text: String?) {
            guard let text else { record.append(0); return }
            record.append(UInt8(text.utf8.count + 1))
            record.append(contentsOf: text.utf8)
        }
        fixed(0x3F9A); fixed(42); fixed(1_714_566_896_000)
        record.append(2) // click
        record.append(2) // testMode known, false
        record.append(4) // position 3
        string("rec_pdp_1"); string("act_1842"); string("240-LV09"); string("-897541074991628287"); string("-2739101928374651")
        string("TR"); string("TRY"); string(nil); string(nil); string(nil); string(nil); string(#"{"channel":"app"}"#)
        let decoded = try EventCodec.decode(record[...])
        #expect(decoded.id == EventID(run: 0x3F9A, sequence: 42))
        #expect(decoded.interaction.kind == .click)
        #expect(decoded.interaction.productId == "240-LV09")
        #expect(decoded.interaction.position == 3)
        #expect(decoded.interaction.context.testMode == false)
        #expect(decoded.interaction.context.params["channel"]?.stringValue == "app")
        #expect(decoded.interaction.vendorEvent == nil)
    }

    /// Version 2, byte for byte as the layout in ``EventCodec``'s documentation says (a varint past one byte included).
    @Test func theCodecWritesTheDocumentedLayout() {
        let long = String(repeating: "x", count: 200)
        let interaction = Interaction(kind: .click, instanceId: "rec_pdp_1", interactionId: "act_1842", productId: "240-LV09", position: 3,
                                      searchPhase: .search, context: InteractionContext(userId: "u", sessionId: "s", pageUrl: long, testMode: true,
                                                                                      params: ["channel": "app"]),
                                      occurred: Date(timeIntervalSince1970: 1_714_566_896.25), forcePush: true)
        var expected: [UInt8] = [2]
        func fixed(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { expected.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
        func string(_ text: String?) {
            guard let text else { expected.append(0); return }
            let marker = text.utf8.count + 1
            if marker < 128 { expected.append(UInt8(marker)) } else { expected += [UInt8(marker & 0x7F) | 0x80, UInt8(marker >> 7)] }
            expected.append(contentsOf: text.utf8)
        }
        fixed(0x3F9A); fixed(42); fixed(1_714_566_896_250)
        expected += [2, 1 | 6 | 16, 4] // click; forcePush, testMode true, search phase; position 3
        string("rec_pdp_1"); string("act_1842"); string("240-LV09"); string("u"); string("s"); string(nil); string(nil); string(long)
        string(nil); string(nil); string(nil); string(#"{"channel":"app"}"#); string(nil)
        #expect(EventCodec.encode(TrackedEvent(id: EventID(run: 0x3F9A, sequence: 42), interaction: interaction)) == expected)
    }

    @Test func aRecordWhoseKindAndPayloadDisagreeIsRefused() {
        var bytes = EventCodec.encode(TrackedEvent(id: EventID(run: 1, sequence: 1),
                                                   interaction: .vendorEvent(pageView, context: Fixtures.context)))
        bytes[25] = 2 // kind byte: claim a click that carries a vendor event
        #expect(throws: TrackingError.self) { try EventCodec.decode(bytes[...]) }
        let truncated = EventCodec.encode(TrackedEvent(id: EventID(run: 1, sequence: 2), interaction: Fixtures.click("P")))
        #expect(throws: TrackingError.self) { try EventCodec.decode(truncated.dropLast()) }
    }

    @Test func theShapeCheckWantsANamedEventForTheVendorKindOnly() {
        #expect(throws: InteractionError.self) { try Interaction(kind: .vendorEvent, instanceId: "").checkShape() }
        #expect(throws: InteractionError.self) {
            try Interaction.vendorEvent(VendorEvent(vendor: .segmentify, name: ""), context: Fixtures.context).checkShape()
        }
        var click = Fixtures.click("240-LV09")
        click.vendorEvent = pageView
        #expect(throws: InteractionError.self) { try click.checkShape() }
        #expect(throws: Never.self) { try Interaction.vendorEvent(pageView, context: Fixtures.context).checkShape() }
    }
}
