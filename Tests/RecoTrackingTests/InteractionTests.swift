import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

@Suite("Interactions: building from widgets and refusing bad events")
struct InteractionTests {
    let widget = Fixtures.widget()

    @Test func clickTakesItsPositionFromTheWidget() throws {
        let click = try Interaction.click(productId: "318-KZ11", in: widget, context: Fixtures.context)
        #expect(click.position == 2)
        #expect(click.instanceId == "rec_pdp_1")
        #expect(click.productId == "318-KZ11")
    }

    @Test func clickOnAProductTheWidgetDoesNotHoldIsRefused() {
        #expect(throws: InteractionError.self) { try Interaction.click(productId: "999-XX00", in: widget, context: Fixtures.context) }
        do {
            _ = try Interaction.click(productId: "999-XX00", in: widget, context: Fixtures.context)
        } catch {
            #expect(error.isNotInWidget)
            #expect(error.description.contains("999-XX00"))
        }
    }

    @Test func trackRefusesMissingUserSessionEmptyProductAndForeignClicks() async throws {
        let tracker = try Tracker(destination: SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:9")!, apiKey: "k", origin: "shop.example"),
                                  configuration: TrackerSetup(journal: nil, durability: .memory),
                                  transport: ScriptedTransport([]))
        var noUser = Interaction.widgetView(of: widget, context: Fixtures.context)
        noUser.context.userId = nil
        #expect { try tracker.track(noUser) } throws: { ($0 as? TrackingError)?.interactionError?.isMissing("userId") == true }
        var noSession = Interaction.impression(of: widget, context: Fixtures.context)
        noSession.context.sessionId = ""
        #expect { try tracker.track(noSession) } throws: { ($0 as? TrackingError)?.interactionError?.isMissing("sessionId") == true }
        let emptyProduct = Fixtures.click("")
        #expect { try tracker.track(emptyProduct) } throws: { ($0 as? TrackingError)?.interactionError?.isEmptyProductId == true }
        let foreign = Fixtures.click("999-XX00")
        #expect { try tracker.track(foreign, shownIn: widget) } throws: { ($0 as? TrackingError)?.interactionError?.isNotInWidget == true }
        let otherWidget = Fixtures.click("240-LV09", instanceId: "rec_home_2")
        #expect { try tracker.track(otherWidget, shownIn: widget) } throws: { ($0 as? TrackingError)?.interactionError?.isNotInWidget == true }
        try tracker.track(Fixtures.click("240-LV09"), shownIn: widget)
        let statistics = tracker.statistics
        #expect(statistics.accepted == 1)
        #expect(statistics.refusedInvalid == 5)
        _ = await tracker.shutdown(deadline: .zero)
    }

    @Test func retenoRefusesEventsItHasNoFormatFor() throws {
        let destination = RetenoDestination(accessKey: "key")
        #expect(throws: InteractionError.self) { try destination.validate(.widgetView(of: widget, context: Fixtures.context)) }
        #expect(throws: InteractionError.self) {
            try destination.validate(Interaction(kind: .impression, instanceId: "r1107v1482", productId: nil))
        }
        try destination.validate(Interaction(kind: .impression, instanceId: "r1107v1482", productId: "240-LV09"))
    }

    @Test func jsonLinesReadEveryKindAndReportMistakes() throws {
        let click = try Interaction(jsonLine: JSONValue(parsing: #"{"type":"click","instanceId":"rec_1","productId":"240-LV09","position":3,"userId":"u1","sessionId":"s1","occurred":"2024-05-01T12:34:56Z"}"#))
        #expect(click.kind == .click)
        #expect(click.position == 3)
        #expect(InteractionTime.iso8601(click.occurred) == "2024-05-01T12:34:56Z")
        let search = try Interaction(jsonLine: JSONValue(parsing: #"{"type":"search-click","phase":"before-search","productId":"p","userId":"u","sessionId":"s"}"#))
        #expect(search.searchPhase == .beforeSearch)
        let reteno = try Interaction(jsonLine: JSONValue(parsing: #"{"type":"impression","recomVariantId":"r1107v1482","productId":"240-LV09","forcePush":true}"#))
        #expect(reteno.instanceId == "r1107v1482")
        #expect(reteno.forcePush)
        #expect(throws: InteractionError.self) { try Interaction(jsonLine: JSONValue(parsing: #"{"type":"clik","productId":"p"}"#)) }
        #expect(throws: InteractionError.self) { try Interaction(jsonLine: JSONValue(parsing: #"{"type":"click","prodctId":"p"}"#)) }
    }

    @Test func isoTimesAreUTCWholeSecondsWithZ() {
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: 1_714_566_896.987)) == "2024-05-01T12:34:56Z")
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: 4_102_444_799)) == "2099-12-31T23:59:59Z")
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00Z")
    }
}
