import RecoKit
import Testing
@testable import StorefrontKit

@Suite("Rendered widgets")
struct RenderedWidgetsTests {
    static func shown(_ index: Int) -> RenderedWidgets.Shown {
        RenderedWidgets.Shown(vendor: .segmentify, instanceId: "scn_\(index)", interactionId: "act_\(index)")
    }

    @Test func aWidgetIsTakenOnceAndOnlyByItsVisitor() {
        let memory = RenderedWidgets()
        memory.record([Self.shown(1)], for: "alice")
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_1", for: "bob") == nil)
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_2", for: "alice") == nil)
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_1", for: "alice") == Self.shown(1))
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_1", for: "alice") == nil)
    }

    @Test func memoryIsBoundedPerVisitorAndInVisitors() {
        let memory = RenderedWidgets(maxVisitors: 3, maxWidgetsPerVisitor: 2)
        memory.record((1...3).map(Self.shown), for: "alice")
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_1", for: "alice") == nil)
        #expect(memory.take(instanceId: "scn_3", interactionId: "act_3", for: "alice") != nil)
        for visitor in ["bob", "carol", "dave"] { memory.record([Self.shown(9)], for: visitor) }
        #expect(memory.visitorCount == 3)
        #expect(memory.take(instanceId: "scn_2", interactionId: "act_2", for: "alice") == nil)
        // Seeing bob again keeps him; erin pushes out carol, the longest unseen.
        memory.record([Self.shown(8)], for: "bob")
        memory.record([Self.shown(9)], for: "erin")
        #expect(memory.take(instanceId: "scn_9", interactionId: "act_9", for: "carol") == nil)
        #expect(memory.take(instanceId: "scn_9", interactionId: "act_9", for: "bob") != nil)
        for index in 0..<10_000 { memory.record([Self.shown(1)], for: "v\(index % 5)") }
        #expect(memory.visitorCount == 3)
    }

    @Test func memoryIsBoundedInBytesAndRefusesOverlongIds() {
        let memory = RenderedWidgets(maxVisitors: 1_000, maxWidgetsPerVisitor: 4, maxBytes: 10_000)
        let long = String(repeating: "x", count: 200)
        for index in 0..<1_000 {
            memory.record([RenderedWidgets.Shown(vendor: .segmentify, instanceId: long + "\(index)", interactionId: long)], for: "visitor\(index)")
            #expect(memory.byteCount <= 10_000)
        }
        #expect(memory.visitorCount < 30 && memory.visitorCount > 0)
        #expect(memory.take(instanceId: long + "999", interactionId: long, for: "visitor999") != nil, "the newest is kept")
        let overlong = String(repeating: "y", count: RenderedWidgets.maxIdBytes + 1)
        memory.record([RenderedWidgets.Shown(vendor: .segmentify, instanceId: overlong, interactionId: "a")], for: "mallory")
        #expect(memory.take(instanceId: overlong, interactionId: "a", for: "mallory") == nil)
    }
}
