@testable import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

@Suite("Segmentify INTERACTION events on the wire")
struct SegmentifyEncodingTests {
    let widget = Fixtures.widget()
    let destination = SegmentifyDestination(dataCenter: URL(string: "https://gandalf.segmentify.com")!,
                                            apiKey: "8157d334-f8c4-4c09-9a2e-1b7b1d1e6b0a", origin: "www.shop.example")

    func json(_ event: TrackedEvent) -> String { JSONWriter.string(SegmentifyOracle.event(event)) }

    @Test func impressionAndWidgetViewCarryTheBlocksIds() {
        let id = EventID(run: 0xABCDEF, sequence: 7)
        let impression = json(TrackedEvent(id: id, interaction: .impression(of: widget, context: Fixtures.context)))
        #expect(impression == #"{"currency":"TRY","instanceId":"rec_pdp_1","interactionId":"act_1842","lang":"TR","name":"INTERACTION","pageUrl":"https://www.shop.example/urun/240-lv09-kosu-ayakkabisi","params":{"eventId":"0000000000abcdef-7"},"sessionId":"-2739101928374651","type":"impression","userId":"-897541074991628287"}"#)
        let view = SegmentifyOracle.event(TrackedEvent(id: id, interaction: .widgetView(of: widget, context: Fixtures.context)))
        #expect(view["type"]?.stringValue == "widget-view")
        #expect(view["interactionId"]?.stringValue == "act_1842")
    }

    @Test func clickSendsTheProductIdAndFacetedSearchAppendsProduct() throws {
        let click = try Interaction.click(productId: "318-KZ11", in: widget, context: Fixtures.context)
        let event = SegmentifyOracle.event(TrackedEvent(id: EventID(run: 1, sequence: 1), interaction: click))
        #expect(event["type"]?.stringValue == "click")
        #expect(event["instanceId"]?.stringValue == "rec_pdp_1")
        #expect(event["interactionId"]?.stringValue == "318-KZ11")
        let faceted = Fixtures.widget(instanceId: "fcs_category_12")
        let facetedClick = try Interaction.click(productId: "240-LV09", in: faceted, context: Fixtures.context)
        let facetedEvent = SegmentifyOracle.event(TrackedEvent(id: EventID(run: 1, sequence: 2), interaction: facetedClick))
        #expect(facetedEvent["interactionId"]?.stringValue == "240-LV09|product")
    }

    @Test func searchClicksUseBeforeSearchAndSearchInstanceIds() {
        let before = SegmentifyOracle.event(TrackedEvent(id: EventID(run: 1, sequence: 1),
            interaction: .searchClick(productId: "557-TR02", phase: .beforeSearch, context: Fixtures.context)))
        let after = SegmentifyOracle.event(TrackedEvent(id: EventID(run: 1, sequence: 2),
            interaction: .searchClick(productId: "557-TR02", phase: .search, context: Fixtures.context)))
        #expect(before["instanceId"]?.stringValue == "bs_product")
        #expect(after["instanceId"]?.stringValue == "product")
        #expect(before["type"]?.stringValue == "click")
        #expect(after["interactionId"]?.stringValue == "557-TR02")
    }

    @Test func optionalCommonFieldsAppearOnlyWhenSet() {
        var context = InteractionContext(userId: "u", sessionId: "s", testMode: true, params: ["channel": "app"])
        context.region = "EU"
        let event = SegmentifyOracle.event(TrackedEvent(id: EventID(run: 1, sequence: 1), interaction: .widgetView(of: widget, context: context)),
                                                 includeEventId: false)
        #expect(event["testMode"]?.boolValue == true)
        #expect(event["region"]?.stringValue == "EU")
        #expect(event["lang"] == nil)
        #expect(event["params"]?["eventId"] == nil)
        #expect(event["params"]?["channel"]?.stringValue == "app")
    }

    @Test func aBatchIsOneJSONArrayPostedWithKeyAndOrigin() throws {
        let events = (1...3).map { TrackedEvent(id: EventID(run: 9, sequence: UInt64($0)), interaction: .impression(of: widget, context: Fixtures.context)) }
        let request = destination.request(for: events.map(EventRecord.init))
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://gandalf.segmentify.com/add/events/v1.json?apiKey=8157d334-f8c4-4c09-9a2e-1b7b1d1e6b0a")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("Origin") == "www.shop.example")
        let body = try JSONValue(parsing: request.body)
        #expect(body.arrayValue?.count == 3)
        #expect(body[2]?["params"]?["eventId"]?.stringValue == "0000000000000009-3")
    }

    @Test func theBatchWriterMatchesTheEventValuesExactly() throws {
        var full = Fixtures.context
        full.region = "EU"
        full.testMode = false
        full.os = "iOS"
        full.device = "mobile"
        full.params = ["channel": "app", "note": "\"quoted\" ve ünlü"]
        let interactions: [Interaction] = [
            .impression(of: widget, context: Fixtures.context), .widgetView(of: widget, context: full),
            try .click(productId: "557-TR02", in: Fixtures.widget(instanceId: "fcs_brand_3"), context: full),
            .searchClick(productId: "240-LV09", phase: .beforeSearch, context: InteractionContext(userId: "u", sessionId: "s", testMode: true)),
        ]
        let events = interactions.enumerated().map { TrackedEvent(id: EventID(run: 5, sequence: UInt64($0.offset)), interaction: $0.element) }
        for includeIds in [true, false] {
            let expected = "[" + events.map { JSONWriter.string(SegmentifyOracle.event($0, includeEventId: includeIds)) }.joined(separator: ",") + "]"
            #expect(String(decoding: SegmentifyOracle.body(events, includeEventIds: includeIds), as: UTF8.self) == expected)
        }
    }

    @Test func replyCodesSplitIntoEventFaultsAndSetupFaults() {
        let now = Date()
        func verdict(_ status: Int, _ body: String) -> String {
            destination.verdict(for: VendorReply(status: status, body: Data(body.utf8)), eventCount: 5, now: now).description
        }
        #expect(verdict(200, #"{"statusCode":"SUCCESS"}"#) == "delivered")
        #expect(verdict(200, "") == "delivered")
        #expect(verdict(200, #"{"statusCode":"NO_USERID"}"#).hasPrefix("rejected: Segmentify NO_USERID"))
        // A reply that carries recommendations too is read in place for its code (6 MB, past a tape's copy).
        let products = Array(repeating: #"{"productId":"p","name":"Shoe"}"#, count: 200_000).joined(separator: ",")
        #expect(verdict(200, #"{"responses":[["# + products + #"]],"statusCode":"NO_USERID"}"#).hasPrefix("rejected: Segmentify NO_USERID"))
        #expect(verdict(400, #"{"statusCode":"BAD_INPUT"}"#).hasPrefix("rejected: Segmentify BAD_INPUT"))
        #expect(verdict(200, #"{"statusCode":"NO_DOMAIN_APIKEY_MATCH"}"#).hasPrefix("misconfigured: Segmentify NO_DOMAIN_APIKEY_MATCH"))
        #expect(verdict(403, #"{"statusCode":"NO_ACCOUNT"}"#).hasPrefix("misconfigured"))
        #expect(verdict(200, #"{"statusCode":"SOMETHING_NEW"}"#).hasPrefix("misconfigured"))
        // A 4xx about the request's content with a code RecoKit does not know refuses the batch (bisected),
        // and the vendor's own reply is in the reason; a 401/403 with one is still a setup fault.
        #expect(verdict(400, #"{"statusCode":"PRODUCT_LIMIT","message":"too many products"}"#)
                == #"rejected: Segmentify PRODUCT_LIMIT, a code RecoKit does not know, refused the batch (HTTP 400: {"statusCode":"PRODUCT_LIMIT","message":"too many products"})"#)
        #expect(verdict(422, #"{"statusCode":"SOMETHING_NEW"}"#).hasPrefix("rejected: Segmentify SOMETHING_NEW"))
        #expect(verdict(401, #"{"statusCode":"SOMETHING_NEW"}"#).hasPrefix("misconfigured: Segmentify answered unknown statusCode SOMETHING_NEW"))
        // Known codes keep the vendor's message too.
        #expect(verdict(400, #"{"statusCode":"BAD_INPUT","message":"events[3].type is missing"}"#)
                == #"rejected: Segmentify BAD_INPUT: the body is not a valid JSON array of events (HTTP 400: {"statusCode":"BAD_INPUT","message":"events[3].type is missing"})"#)
        #expect(verdict(503, #"{"statusCode":"NO_ACCOUNT"}"#) == "retry")
    }

    @Test func previewShowsImpressionWidgetViewAndFirstClick() {
        let requests = TrackingPreview.requests(for: widget, endpoint: URL(string: "https://gandalf.segmentify.com")!, apiKey: "KEY", origin: "www.shop.example")
        #expect(requests.map(\.label) == ["impression", "widget-view", "click"])
        #expect(requests[2].body.contains(#""interactionId":"240-LV09""#))
        #expect(requests[0].url == "https://gandalf.segmentify.com/add/events/v1.json?apiKey=KEY")
        #expect(requests[0].headers.contains("Origin: www.shop.example"))
    }
}
