@testable import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

@Suite("Reteno recommendation events on the wire")
struct RetenoEncodingTests {
    let occurred = Date(timeIntervalSince1970: 1_714_566_896.4)

    func event(_ kind: Interaction.Kind, _ variant: String, _ product: String, _ sequence: UInt64) -> TrackedEvent {
        TrackedEvent(id: EventID(run: 0x10, sequence: sequence),
                     interaction: Interaction(kind: kind, instanceId: variant, productId: product, occurred: occurred))
    }

    /// A block's impression (no product) is refused in plain words, with the way Reteno wants it: an
    /// impression per product shown. So is one of a page's.
    @Test func aBlockImpressionIsRefusedWithThePerProductBuilders() throws {
        let reteno = RetenoDestination(accessKey: "k")
        let widget = Widget<RawProduct>(vendor: .reteno, instanceId: "r1107v1482", interactionId: "r1107v1482", title: "", rawProducts: [])
        let context = InteractionContext(userId: "u", sessionId: "s")
        #expect(throws: InteractionError.self) { try reteno.validate(.impression(of: widget, context: context)) }
        do {
            try reteno.validate(.impression(of: widget, context: context))
        } catch {
            #expect(error.kind == .emptyProductId)
            #expect(error.message == "an impression needs a non-empty productId; Reteno counts an impression per product shown: "
                    + "track Interaction.productImpressions(of:context:) or a page's PageImpressions.addProducts(of:)")
        }
        var page = PageImpressions(context: context)
        page.addBlock(widget)
        do {
            try reteno.validate(page)
            Issue.record("a page of block impressions was accepted")
        } catch {
            #expect(error.message.contains("an impression needs a non-empty productId; Reteno counts an impression per product shown"))
        }
    }

    @Test func eventsAreGroupedByVariantWithEmptyListsLeftOut() throws {
        let events = [event(.impression, "r1107v1482", "240-LV09", 1), event(.impression, "r2001v7", "318-KZ11", 2),
                      event(.click, "r1107v1482", "240-LV09", 3), event(.impression, "r1107v1482", "557-TR02", 4)]
        let text = String(decoding: RetenoOracle.body(events, includeEventIds: false), as: UTF8.self)
        #expect(text == #"{"events":[{"clicks":[{"occurred":"2024-05-01T12:34:56Z","productId":"240-LV09"}],"impressions":[{"occurred":"2024-05-01T12:34:56Z","productId":"240-LV09"},{"occurred":"2024-05-01T12:34:56Z","productId":"557-TR02"}],"recomVariantId":"r1107v1482"},{"impressions":[{"occurred":"2024-05-01T12:34:56Z","productId":"318-KZ11"}],"recomVariantId":"r2001v7"}]}"#)
    }

    @Test func productIdsAndVariantsAreEscapedAsJSON() throws {
        let hostile = "a\"b\\c\u{1}\nü🙂</script>"
        let events = [event(.impression, "r1107v1482", hostile, 1), event(.click, "r\"x", "240-LV09", 2)]
        let body = try JSONValue(parsing: RetenoOracle.body(events))
        #expect(body[path: "events"]?[0]?["impressions"]?[0]?["productId"]?.stringValue == hostile)
        #expect(body[path: "events"]?[0]?["impressions"]?[0]?["eventId"]?.stringValue == "0000000000000010-1")
        #expect(body[path: "events"]?[1]?["recomVariantId"]?.stringValue == "r\"x")
        #expect(body[path: "events"]?[1]?["clicks"]?[0]?["occurred"]?.stringValue == "2024-05-01T12:34:56Z")
    }

    @Test func recomEventsBuildImpressionsAndClicksOfOneVariant() throws {
        let events = Interaction.recomEvents(variant: "r1107v1482", impressions: ["240-LV09", "318-KZ11"], clicks: ["318-KZ11"],
                                             occurred: occurred, forcePush: true)
        #expect(events.map(\.kind) == [.impression, .impression, .click])
        #expect(events.map(\.forcePush) == [false, false, true])
        let tracked = events.enumerated().map { TrackedEvent(id: EventID(run: 1, sequence: UInt64($0.offset)), interaction: $0.element) }
        let body = try JSONValue(parsing: RetenoOracle.body(tracked, includeEventIds: false))
        #expect(body[path: "events"]?.arrayValue?.count == 1)
        #expect(body[path: "events"]?[0]?["impressions"]?.arrayValue?.count == 2)
        #expect(body[path: "events"]?[0]?["clicks"]?[0]?["productId"]?.stringValue == "318-KZ11")
        for event in events { try RetenoDestination(accessKey: "k").validate(event) }
    }

    @Test func requestHasTheAccessKeyAndEventIds() throws {
        let destination = RetenoDestination(base: URL(string: "https://mobile-api.reteno.com")!, accessKey: "ak-123", sdkVersion: "recokit-1.0")
        let request = destination.request(for: [EventRecord(event(.click, "r1107v1482", "240-LV09", 5))])
        #expect(request.url.absoluteString == "https://mobile-api.reteno.com/api/v1/recoms/events")
        #expect(request.header("X-Reteno-Access-Key") == "ak-123")
        #expect(request.header("X-Reteno-SDK-Version") == "recokit-1.0")
        #expect(request.header("Content-Type") == "application/json")
        let body = try JSONValue(parsing: request.body)
        #expect(body[path: "events"]?[0]?["clicks"]?[0]?["eventId"]?.stringValue == "0000000000000010-5")
        #expect(body[path: "events"]?[0]?["impressions"] == nil)
    }

    /// Reteno's refusals keep its own reply in the reason; a 4xx about the content (409 with a code of its
    /// own) refuses the batch (bisected) instead of pausing the destination; 401 stays a setup fault.
    @Test func refusalsKeepTheVendorsOwnMessage() {
        let destination = RetenoDestination(accessKey: "k")
        func verdict(_ status: Int, _ body: String) -> String {
            destination.verdict(for: VendorReply(status: status, body: Data(body.utf8)), eventCount: 3, now: occurred).description
        }
        #expect(verdict(400, #"{"errorCode":"INVALID_PRODUCT","message":"productId 240-LV09 unknown"}"#)
                == #"rejected: HTTP 400: {"errorCode":"INVALID_PRODUCT","message":"productId 240-LV09 unknown"}"#)
        #expect(verdict(409, #"{"errorCode":"DUPLICATE_EVENT"}"#) == #"rejected: HTTP 409: {"errorCode":"DUPLICATE_EVENT"}"#)
        #expect(verdict(401, #"{"errorCode":"BAD_KEY"}"#) == #"misconfigured: HTTP 401: {"errorCode":"BAD_KEY"}"#)
    }

    @Test func eventsOlderThanADayAreScreenedWithAReason() {
        let destination = RetenoDestination(accessKey: "k")
        let old = EventRecord(event(.impression, "r1107v1482", "240-LV09", 1))
        #expect(destination.screen(old, now: occurred.addingTimeInterval(23 * 3600)) == nil)
        let reason = destination.screen(old, now: occurred.addingTimeInterval(25 * 3600))
        #expect(reason?.contains("older than Reteno accepts") == true)
    }

    @Test func staleEventsAreDeadLetteredNotSentNorDropped() async throws {
        let clock = TestClock(start: occurred.addingTimeInterval(30 * 3600))
        let transport = ScriptedTransport([])
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.flushInterval = .milliseconds(1)
        let tracker = try Tracker(destination: RetenoDestination(accessKey: "k"), configuration: configuration, transport: transport, clock: clock)
        try tracker.track(Interaction(kind: .impression, instanceId: "r1107v1482", productId: "240-LV09", occurred: occurred))
        try tracker.track(Interaction(kind: .click, instanceId: "r1107v1482", productId: "318-KZ11", occurred: clock.now()))
        await tracker.waitUntilDelivered()
        let letters = try await tracker.deadLetters()
        #expect(letters.map { $0.event.interaction.productId } == ["240-LV09"])
        #expect(tracker.statistics.delivered == 1)
        let sent = try transport.requests.map { try JSONValue(parsing: $0.body) }
        #expect(sent.count == 1)
        #expect(sent.first?[path: "events"]?[0]?["clicks"]?[0]?["productId"]?.stringValue == "318-KZ11")
        _ = await tracker.shutdown(deadline: .zero)
    }

    @Test func previewShowsImpressionsOfEveryProductAndTheFirstClick() throws {
        let widget = Fixtures.widget(vendor: .reteno, instanceId: "r1107v1482", interactionId: "r1107v1482")
        let requests = TrackingPreview.requests(for: widget, apiKey: "ak")
        #expect(requests.map(\.label) == ["impressions", "click"])
        let impressions = try JSONValue(parsing: requests[0].body)
        #expect(impressions[path: "events"]?[0]?["impressions"]?.arrayValue?.count == 3)
        #expect(requests[1].body.contains(#""productId":"240-LV09""#))
        #expect(requests[0].url == "https://mobile-api.reteno.com/api/v1/recoms/events")
    }
}
